import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHash } from 'node:crypto'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * Idempotency-Key (CONTRACT section 5): a record past its 24-hour expiry no longer holds its key,
 * even while it is still in the table (DynamoDB's TTL sweeper may take days), and the claim is
 * decided by one conditional write. The server runs in this process, so the test moves its clock
 * (Date only) a day ahead instead of waiting; DynamoDB Local never sweeps, so the record is still
 * there when the retry arrives.
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())
afterEach(() => {
  vi.useRealTimers()
})

const PATH = '/api/v1/si/generate-invoice-number'
const DAY_MS = 24 * 60 * 60 * 1000

/** The DynamoDB operations the server sends while `run` runs (the server shares this process's client). */
async function operationsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = []
  const name = 'count-operations'
  db().middlewareStack.add(
    (next, context) => async (args) => {
      seen.push(String(context.commandName))
      return next(args)
    },
    { step: 'initialize', name },
  )
  try {
    await run()
  } finally {
    db().middlewareStack.remove(name)
  }
  return seen
}

describe('Idempotency-Key', () => {
  it('is held by its record for 24 hours, and no longer once that record has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    vi.setSystemTime(start)
    const key = { 'idempotency-key': `expiry-${start}` }

    const first = await clients.si.post<any>(PATH, { code: 'EXP', serial_number: 1 }, key)
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual({ invoice_number: 'EXP000001' })

    // Within the day: a different body under the same key is refused, the same body replayed.
    vi.setSystemTime(start + DAY_MS - 60_000)
    const other = await clients.si.post<any>(PATH, { code: 'EXP', serial_number: 2 }, key)
    expect(other.status).toBe(409)
    const retry = await clients.si.post<any>(PATH, { code: 'EXP', serial_number: 1 }, key)
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')

    // A day and a second later the record is still in the table but expired: the key is free again.
    vi.setSystemTime(start + DAY_MS + 1_000)
    const later = await clients.si.post<any>(PATH, { code: 'EXP', serial_number: 2 }, key)
    expect(later.status, JSON.stringify(later.body)).toBe(200)
    expect(later.body.data).toEqual({ invoice_number: 'EXP000002' })
    expect(later.headers.get('idempotent-replayed')).toBeNull()

    // And the new record holds it from then on (a second later: the stopped clock would otherwise
    // sign the same bytes, which the replay guard refuses).
    vi.setSystemTime(start + DAY_MS + 2_000)
    const again = await clients.si.post<any>(PATH, { code: 'EXP', serial_number: 2 }, key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  })

  it('is a 400, not a 500, on a path too long for a DynamoDB key (found by the route fuzz test)', async () => {
    const reply = await clients.app.request<any>(
      'PATCH',
      `/api/v1/app/invoice/update/${'p'.repeat(3000)}`,
      { payment_status: 'PAID' },
      { 'idempotency-key': `long-path-${Date.now()}` },
    )
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors[0]).toMatchObject({ path: 'path/irn' })
  })

  it('decides a retry with one conditional write, no read', async () => {
    const key = { 'idempotency-key': `one-write-${Date.now()}` }
    const body = { code: 'ONE', serial_number: 7 }
    expect((await clients.si.post<any>(PATH, body, key)).status).toBe(200)
    let reply: any
    const operations = await operationsDuring(async () => {
      reply = await clients.si.post<any>(PATH, body, key)
    })
    expect(reply.headers.get('idempotent-replayed')).toBe('true')
    // Authentication reads the client and marks the signature seen (the first put); a rate-limit
    // lease (an update, only when the container's lease runs out: issue 43) may follow. After that the
    // idempotency decision is exactly one conditional put, with no read of the record that won.
    const afterAuth = operations
      .slice(operations.findIndex((op) => op.startsWith('Put')) + 1)
      .filter((op) => !op.startsWith('Update'))
    expect(afterAuth, operations.join(', ')).toEqual([expect.stringMatching(/^Put/)])
  })

  it("is free again once a claim's function has run out of time, not 24 hours later", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    vi.setSystemTime(start)
    const header = `dead-claim-${start}`
    const body = { code: 'DEAD', serial_number: 1 }
    // What a function that claimed the key and then died (timeout, out of memory) leaves behind: its
    // claim, with the time it had left (10 s, the API functions' timeout), never completed or released.
    const sha = (text: string) => createHash('sha256').update(text).digest('hex')
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.idempotency(`A#${DEV.clients.si.apiKey}`, `POST ${PATH}#${sha(PATH)}`, header),
          state: 'IN_PROGRESS',
          requestHash: sha(JSON.stringify(body)),
          expiresAt: Math.floor(start / 1000) + 24 * 60 * 60,
          inProgressUntil: start + 10_000,
        },
      }),
    )

    // While the dead function's time might still be running, the key is held: 409, retry shortly.
    vi.setSystemTime(start + 5_000)
    const early = await clients.si.post<any>(PATH, body, { 'idempotency-key': header })
    expect(early.status).toBe(409)
    expect(early.headers.get('retry-after')).toBe('5')

    // Once it has passed, the retry runs.
    vi.setSystemTime(start + 11_000)
    const retry = await clients.si.post<any>(PATH, body, { 'idempotency-key': header })
    expect(retry.status, JSON.stringify(retry.body)).toBe(200)
    expect(retry.body.data).toEqual({ invoice_number: 'DEAD000001' })
    expect(retry.headers.get('idempotent-replayed')).toBeNull()
  })
})
