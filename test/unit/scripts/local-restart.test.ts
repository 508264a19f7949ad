import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { marshall } from '@aws-sdk/util-dynamodb'
import { sendMessage, type QueueTransport, useLocalQueues } from '#lib/platform/async/queue.ts'
import { db } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { newEvent } from '#lib/events/event.ts'
import { readDelivery } from '#lib/webhooks/delivery-records.ts'
import { attemptMessage } from '#lib/webhooks/delivery-worker.ts'
import { handler as fanOutHandler } from '../../../functions/webhooks/webhook-fan-out.ts'
import { openLocalStateTable } from '../../../scripts/local/local-state-table.ts'
import { startStreamDrive } from '../../../scripts/local/stream-drive.ts'
import { startWorkers } from '../../../scripts/local/workers.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, devClients } from '../../support/clients.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'
import { receiverPool, subscribe } from '../../support/webhook-subscriptions.ts'

/**
 * The local stand-ins keep what AWS keeps across a restart (issue 33): a stream consumer resumes
 * where it stopped, not from the stream's start; a queued or delayed message is still there.
 */
let api: TestApi
const { receiver, closeAll } = receiverPool()
beforeAll(async () => {
  api = await startApi()
})
afterAll(async () => {
  await closeAll()
  await api?.close()
})

describe('the local stream drive and queues across a restart', () => {
  it('resumes the stream after the last record a consumer took, not from its start', async () => {
    const seen: string[] = []
    const probe = {
      name: 'probe',
      handler: async (event: { Records: { dynamodb?: { Keys?: Record<string, { S?: string }> } }[] }) => {
        for (const r of event.Records) {
          const pk = r.dynamodb?.Keys?.pk?.S ?? ''
          if (pk.startsWith('PROBE#')) seen.push(pk)
        }
        return { batchItemFailures: [] }
      },
    }
    const put = (n: number) =>
      db().send(new PutCommand({ TableName: api.tableName, Item: { pk: `PROBE#${n}`, sk: 'P' } }))
    const run = async (write: number[]) => {
      const state = await openLocalStateTable(api.dynamoEndpoint, api.tableName)
      const drive = await startStreamDrive({
        endpoint: api.dynamoEndpoint,
        tableName: api.tableName,
        consumers: [probe as never],
        state,
      })
      for (const n of write) await put(n)
      await drive.settled(10_000)
      await drive.settled(10_000)
      await drive.stop()
      state.close()
    }
    await run([1, 2, 3])
    expect(seen).toEqual(['PROBE#1', 'PROBE#2', 'PROBE#3'])
    seen.length = 0
    await run([4])
    expect(seen).toEqual(['PROBE#4'])
  })

  it('hands over a delayed message queued before the workers stopped, once they run again', async () => {
    const r = await receiver()
    const { id, secret } = await subscribe(devClients(api.url).admin, r.url, ['invoice.signed'])
    r.secret = secret
    // A delivery whose first attempt is not queued (its message lost on purpose here).
    const slot = Symbol.for('einvoicing.localQueues')
    const holder = globalThis as Record<symbol, QueueTransport | undefined>
    const before = holder[slot]
    useLocalQueues({ send: async () => undefined })
    const event = newEvent(
      'invoice.signed',
      DEV.supplier.businessId,
      { irn: 'KEPT001-94ND90NR-20261125', status: 'SIGNED', payment_status: 'PENDING' } as never,
      new Date().toISOString(),
    )
    try {
      const item = { ...keys.event(event.id), entity: 'EVENT', ...event }
      await fanOutHandler({
        Records: [{ eventName: 'INSERT', dynamodb: { NewImage: marshall(item), SequenceNumber: '1' } }],
      } as never)
    } finally {
      useLocalQueues(before)
    }
    const options = { endpoint: api.dynamoEndpoint, tableName: api.tableName, only: ['webhook-deliver'] }
    const first = await startWorkers(options)
    // Delayed 2 s; the workers stop before it is due.
    await sendMessage(
      'webhook-deliveries',
      attemptMessage({ subscriptionId: id, eventId: event.id, businessId: DEV.supplier.businessId }, 0),
      2,
    )
    await first.stop()
    const second = await startWorkers(options)
    try {
      await eventually(() => expect(r.unique()).toHaveLength(1), 15_000)
      await second.drained()
      expect(await readDelivery(id, event.id)).toMatchObject({ status: 'DELIVERED', attempts: 1 })
    } finally {
      await second.stop()
    }
  })
})
