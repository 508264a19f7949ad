import { randomUUID } from 'node:crypto'
import { inject } from 'vitest'
import { dropLocalStateTable } from '../../scripts/local/local-state-table.ts'
import { dropTable, ensureTable } from '../../scripts/local/table.ts'
import { useDevStageEnvironment } from '../../scripts/local/stage-environment.ts'
import { checkReply } from './contract.ts'

/**
 * A running copy of the API for one test file: the local server (the same one `npm start` runs) on a
 * free port, in front of a fresh table in the run's DynamoDB Local, seeded as `npm start` seeds it,
 * with the local stream drive running the table's stream consumers as `npm start` does.
 */
export interface TestApi {
  url: string
  tableName: string
  dynamoEndpoint: string
  /** The stream and queue consumers (the history indexer always; the others when started with `workers`). */
  workers: import('../../scripts/local/workers.ts').Workers
  /**
   * Waits for the stream consumers (the merchant history indexer) to catch up with every write made so
   * far, including writes made outside the server (worker processes, direct lib calls).
   */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function startApi(
  options: {
    dynamoEndpoint?: string
    workers?: boolean | string[]
    /**
     * Makes the table instead of ensureTable (the index migration tests: a table of an older layout
     * holding data), in the file's own database, before the seed.
     */
    table?: (target: { tableName: string; dynamoEndpoint: string }) => Promise<void>
  } = {},
): Promise<TestApi> {
  const dynamoEndpoint = options.dynamoEndpoint ?? inject('dynamoEndpoint')
  const tableName = `test-${randomUUID()}`
  // Read by lib/platform/config.ts on first use, exactly as in Lambda; each test file has its own module graph.
  process.env.TABLE_NAME = tableName
  process.env.DYNAMODB_ENDPOINT = dynamoEndpoint
  process.env.STAGE = 'local'
  process.env.AWS_REGION = 'eu-west-1'
  // What the stacks set from the stage's settings, from dev's, as `npm start` does.
  useDevStageEnvironment()
  // This file's own database in the run's DynamoDB Local (lib/platform/db/local.ts); child processes inherit it.
  process.env.DYNAMODB_LOCAL_DATABASE = `test${randomUUID().replaceAll('-', '')}`
  if (options.table) await options.table({ tableName, dynamoEndpoint })
  else await ensureTable(dynamoEndpoint, tableName)
  const { seedLocal } = await import('../../scripts/local/seed.ts')
  await seedLocal()
  // The local stream drives and queues (scripts/local/workers.ts): the history indexer always, as
  // `npm start` runs it; the consumers of lib/service/consumers.ts when asked for (`workers`).
  // Every AWS call a function makes is held to its role (scripts/local/iam.ts): a synth's grants when
  // its bundles run, else those the sources derive the policies from.
  const provided = inject('grants')
  const grants = provided ? new Map(Object.entries(provided)) : undefined
  // With API_BUNDLES the consumers run from their bundles too, as under `npm start -- --bundles`.
  const bundles = inject('bundles')
  if (bundles) (await import('../../scripts/local/bundles.ts')).lambdaEnvironment()
  const { startWorkers } = await import('../../scripts/local/workers.ts')
  const only = options.workers === true ? undefined : ['history-indexer', ...(options.workers || [])]
  const workers = await startWorkers({
    endpoint: dynamoEndpoint,
    tableName,
    bundles,
    ...(only ? { only } : {}),
    ...(grants ? { grants } : {}),
  })
  const { startServer } = await import('../../scripts/local/server.ts')
  const server = await startServer(0, { bundles, grants, afterWrite: () => workers.historySettled() })
  return {
    url: server.url,
    tableName,
    dynamoEndpoint,
    workers,
    settled: () => workers.settled(),
    close: async () => {
      await server.close()
      await workers.stop()
      // Frees the memory the file's table holds in the run's DynamoDB Local.
      await dropTable(dynamoEndpoint, tableName)
      await dropLocalStateTable(dynamoEndpoint, tableName)
    },
  }
}

export interface HttpReply<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

/**
 * Sends a request and reads the reply as JSON when there is any. Every reply is held to the OpenAPI
 * document (test/support/contract.ts): one it does not describe fails the test. `unchecked` is for
 * the few tests whose point is a reply outside any route's contract (requests Node's parser refuses).
 */
export async function send<T = any>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; unchecked?: true } = {},
): Promise<HttpReply<T>> {
  const method = init.method ?? 'GET'
  const res = await fetch(url, { method, headers: init.headers, body: init.body })
  const text = await res.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    // Not JSON: the test sees the raw text.
  }
  const reply = { status: res.status, headers: res.headers, body: body as T, text }
  if (!init.unchecked) checkReply(method, url, reply)
  return { ...reply, body: withoutCode(url, reply) as T }
}

/** The authority's own paths (CONTRACT 17), whose tests read its records whole, `code` included. */
const AUTHORITY_PATH = /^\/api(\/v1\/(invoice|utilities|entity)(\/|$|\?)|$|\?)/

/**
 * Every Area A JSON record carries `code`, the HTTP status (CONTRACT 17): checked here on every reply
 * to a seed path (the document's schemas require it; this checks its value), then taken off, so the
 * tests of the seed's records compare them as the interface defines them.
 */
export function withoutCode(url: string, reply: { status: number; body: unknown }): unknown {
  const { body } = reply
  if (typeof body !== 'object' || body === null || !('code' in body)) return body
  if (AUTHORITY_PATH.test(new URL(url).pathname)) return body
  const { code, ...rest } = body as Record<string, unknown>
  if (typeof code !== 'number') return body
  if (code !== reply.status) throw new Error(`Contract: code ${code} in a reply of status ${reply.status}`)
  return rest
}
