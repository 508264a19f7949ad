import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

/** A server started with `npm start`, as a developer starts it in a terminal of their own. */
export interface NpmStart {
  /** The last few thousand characters it printed (stdout and stderr), for failure messages. */
  output(): string
  /** Stops npm, its shell and the server under it, and waits for them to exit. */
  stop(): Promise<void>
}

/**
 * Runs `npm start [-- args]` in `cwd` in a process group of its own and waits until the server has
 * written `serverFile` (scripts/local/state.ts), which it does only once it answers. Fails with what
 * it printed when it exits first or is not up within `timeoutMs`.
 */
export async function npmStart(options: {
  cwd: string
  env: NodeJS.ProcessEnv
  serverFile: string
  args?: readonly string[]
  timeoutMs: number
}): Promise<NpmStart> {
  const command = ['start', ...(options.args?.length ? ['--', ...options.args] : [])]
  const label = `npm ${command.join(' ')}`
  const server: ChildProcess = spawn('npm', command, {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env,
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-6000)
  }
  server.stdout?.on('data', keep)
  server.stderr?.on('data', keep)
  const stop = async () => {
    if (!server.pid || server.exitCode !== null || server.signalCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    // The whole group: npm, its shell and the server under it.
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  const deadline = Date.now() + options.timeoutMs
  while (!existsSync(options.serverFile)) {
    if (server.exitCode !== null) throw new Error(`${label} exited:\n${output}`)
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${label} did not come up within ${options.timeoutMs / 1000} s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { output: () => output, stop }
}
