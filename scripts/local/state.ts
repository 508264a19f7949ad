import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What a running `npm start` tells the CLI: where its DynamoDB Local answers, which table it serves
 * and which local key folders it uses. `npm start` writes it once it is listening and removes it when
 * it stops, so the CLI works against the running server with no flags (CONTRACT 8, issue 11).
 *
 * The file is `.local/server.json` in the project (gitignored); env LOCAL_SERVER_FILE moves it, which
 * the README test uses to run a server of its own beside one a developer may have running.
 */
export interface LocalServerState {
  /** The `npm start` process: the file is stale once it is gone. */
  pid: number
  url: string
  dynamoEndpoint: string
  tableName: string
  /** Resolved KEYS_DIR and DATA_KEY_DIR, so secrets the CLI writes open in the server and back. */
  keysDir: string
  dataKeyDir: string
  /** With `--bundles`: the directory the functions run from (cdk.out, or .bundles/). */
  bundlesDir?: string
  startedAt: string
}

const projectRoot = () => fileURLToPath(new URL('../../', import.meta.url))

export const localServerFile = (env: Record<string, string | undefined> = process.env): string =>
  env.LOCAL_SERVER_FILE || join(projectRoot(), '.local', 'server.json')

/** Written to a temporary name and renamed, so a reader never sees half a file. */
export async function writeLocalServerState(state: LocalServerState): Promise<string> {
  const file = localServerFile()
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`)
  renameSync(temporary, file)
  return file
}

/**
 * Removes the file if it still describes this process (another `npm start` may have replaced it).
 * Synchronous, so it also runs from a process 'exit' listener.
 */
export function removeLocalServerState(pid: number = process.pid): void {
  const file = localServerFile()
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalServerState>
    if (state.pid === pid) rmSync(file, { force: true })
  } catch {
    // Absent or unreadable: nothing of ours to remove.
  }
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as { code?: string }).code === 'EPERM'
  }
}

export type LocalServerLookup =
  | { found: true; state: LocalServerState; file: string }
  | { found: false; file: string; reason: string }

/** The running local server, or why there is none. */
export function findLocalServer(env: Record<string, string | undefined> = process.env): LocalServerLookup {
  const file = localServerFile(env)
  let state: LocalServerState
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as LocalServerState
  } catch (error) {
    const absent = (error as { code?: string }).code === 'ENOENT'
    return { found: false, file, reason: absent ? `${file} does not exist` : `${file} is unreadable` }
  }
  if (!Number.isInteger(state.pid) || !state.dynamoEndpoint || !state.tableName)
    return { found: false, file, reason: `${file} is incomplete` }
  if (!isRunning(state.pid))
    return { found: false, file, reason: `the server that wrote ${file} (pid ${state.pid}) has stopped` }
  return { found: true, state, file }
}
