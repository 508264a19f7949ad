import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { auditOfInvoice } from '#lib/platform/audit/trail.ts'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { freePort, startDynamoDbLocal } from '../../../scripts/local/dynamodb-local.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, devClients } from '../../support/clients.ts'
import { eventually, startEventReceiver } from '../../support/standard-webhook-receiver.ts'

/**
 * Events must survive DynamoDB stopping in the middle of a burst (CONTRACT section 11): this file's
 * own DynamoDB Local, kept on disk so it can be stopped and started again with its data. (The batch
 * worker killed mid-batch is test/http/batches/worker-killed.test.ts.)
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '1s,1s,2s,2s,4s,4s,8s'

const cleanup: (() => Promise<unknown> | unknown)[] = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

async function diskDynamo() {
  const dataDir = mkdtempSync(join(tmpdir(), 'events-faults-'))
  const port = await freePort()
  let dynamo = await startDynamoDbLocal({ dataDir, port, heapMb: 384 })
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }))
  cleanup.push(() => dynamo.stop())
  return {
    endpoint: dynamo.endpoint,
    stop: () => dynamo.stop(),
    restart: async () => {
      dynamo = await startDynamoDbLocal({ dataDir, port, heapMb: 384 })
    },
  }
}

const SIGNED = /^20\d$/

describe('events when DynamoDB stops', () => {
  it('gives 200 state changes made around a DynamoDB outage one event each, each delivered once', {
    timeout: 300_000,
  }, async () => {
    const dynamo = await diskDynamo()
    const api: TestApi = await startApi({ dynamoEndpoint: dynamo.endpoint, workers: true })
    cleanup.push(() => api.close())
    const clients = devClients(api.url)
    const receiver = await startEventReceiver()
    cleanup.push(() => receiver.close())
    const sub = await clients.admin.post<any>('/api/v1/webhooks', {
      url: receiver.url,
      events: ['invoice.signed'],
    })
    expect(sub.status).toBe(201)
    receiver.secret = sub.body.data.secret

    // 200 invoices signed 8 at a time; a request refused while DynamoDB is down is sent again, as a
    // client would, until it succeeds. DynamoDB stops after the 60th change and is back 3 s later.
    const invoices = Array.from({ length: 200 }, () => buildInvoice())
    let done = 0
    let refused = 0
    let outage: Promise<void> | undefined
    const signOne = async (invoice: (typeof invoices)[number]) => {
      for (;;) {
        const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice).catch(() => undefined)
        if (reply && SIGNED.test(String(reply.status))) break
        refused++
        await new Promise((r) => setTimeout(r, 200))
      }
      if (process.env.FAULTS_DEBUG && done % 20 === 0) console.error('signed', done, 'refused', refused)
      if (++done === 60)
        outage = (async () => {
          await dynamo.stop()
          await new Promise((r) => setTimeout(r, 3000))
          await dynamo.restart()
        })()
    }
    const queue = [...invoices]
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await signOne(next)
      }),
    )
    await outage
    expect(refused).toBeGreaterThan(0)

    const irns = new Set(invoices.map((i) => i.irn))
    const events = (await eventsOfBusiness(DEV.supplier.businessId)).filter(
      (e) => e.type === 'invoice.signed' && irns.has(String(e.data.irn)),
    )
    // Exactly one event per change: no change without its event, none twice.
    expect(events).toHaveLength(200)
    expect(new Set(events.map((e) => e.data.irn)).size).toBe(200)
    for (const irn of [...irns].slice(0, 20)) {
      expect((await auditOfInvoice(irn)).filter((a) => a.type === 'INVOICE_SIGNED')).toHaveLength(1)
    }
    // Every event reaches the receiver, signed; deduplicated by webhook-id, exactly once each.
    if (process.env.FAULTS_DEBUG) console.error('events ok; received so far', receiver.unique().length)
    await eventually(() => expect(receiver.unique()).toHaveLength(200), 180_000)
    expect(new Set(receiver.unique().map((r) => r.id))).toEqual(new Set(events.map((e) => e.id)))
    expect(receiver.received.every((r) => r.verified)).toBe(true)
  })
})
