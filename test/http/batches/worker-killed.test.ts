import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, devClients } from '../../support/clients.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

/**
 * A batch must survive its worker being killed outright (CONTRACT section 11): the batch worker runs
 * in a child process on this file's table, is killed mid-batch, and a fresh one finishes the batch.
 */
const children: ChildProcess[] = []
let api: TestApi | undefined
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await api?.close()
})

describe('a batch when its worker is killed', () => {
  it('applies each item exactly once across a worker killed mid-batch and a fresh one', {
    timeout: 300_000,
  }, async () => {
    // The API in this process; the batch worker in a child process that can be killed outright.
    api = await startApi({ workers: ['outbox-sender'] })
    const { tableName, dynamoEndpoint } = api
    const clients = devClients(api.url)
    const worker = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/local/run-workers.ts'], {
        env: {
          ...process.env,
          WORKERS: 'batch-dispatch,batch-worker',
          // One item at a time, so the kill below lands while most of the batch is still to do.
          BATCH_ITEM_CONCURRENCY: '1',
          TABLE_NAME: tableName,
          DYNAMODB_ENDPOINT: dynamoEndpoint,
        },
        stdio: 'ignore',
      })
      children.push(child)
      return child
    }
    const invoices = Array.from({ length: 60 }, () => buildInvoice())
    const accepted = await clients.app.post<any>('/api/v1/app/invoice/batch', { action: 'sign', invoices })
    expect(accepted.status).toBe(202)
    const status = async () =>
      (await clients.app.get<any>(`/api/v1/app/invoice/batch/${accepted.body.batch_id}`)).body

    const first = worker()
    await eventually(async () => expect((await status()).succeeded).toBeGreaterThanOrEqual(15), 120_000)
    first.kill('SIGKILL')
    const atKill = (await status()).succeeded
    expect(atKill).toBeLessThan(60)

    worker()
    const batch = await eventually(async () => {
      const s = await status()
      expect(s.status).toBe('COMPLETED')
      return s
    }, 180_000)
    expect(batch).toMatchObject({ total: 60, succeeded: 60, failed: 0 })
    const irns = new Set(invoices.map((i) => i.irn))
    const events = await eventsOfBusiness(DEV.supplier.businessId)
    const signed = events.filter((e) => e.type === 'invoice.signed' && irns.has(String(e.data.irn)))
    expect(signed).toHaveLength(60)
    expect(new Set(signed.map((e) => e.data.irn)).size).toBe(60)
    expect(
      events.filter((e) => e.type === 'batch.completed' && e.data.batch_id === accepted.body.batch_id),
    ).toHaveLength(1)
    // Each item's reply is the one its single write made: signed_at equals the invoice's event time.
    const signedAt = new Map(signed.map((e) => [e.data.irn, e.data.signed_at]))
    for (const item of batch.items) expect(item.reply.signed_at).toBe(signedAt.get(item.irn))
  })
})
