import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { cliOutput } from '../../support/cli.ts'
import { DEV, devClients } from '../../support/clients.ts'
import { eventually, startEventReceiver } from '../../support/standard-webhook-receiver.ts'

let api: TestApi
beforeAll(async () => {
  api = await startApi({ workers: true })
})
afterAll(() => api?.close())

/** `npm run cli -- ...` as a person runs it, against this file's table. */
async function cli(...args: string[]) {
  const stdout = await cliOutput(api, ...args)
  return JSON.parse(stdout.slice(stdout.search(/[[{]/)))
}

describe('webhooks and batch CLI', () => {
  it('lists subscriptions and deliveries, redelivers an event, and shows a batch', {
    timeout: 120_000,
  }, async () => {
    const clients = devClients(api.url)
    const receiver = await startEventReceiver()
    try {
      const created = await clients.admin.post<any>('/api/v1/webhooks', {
        url: receiver.url,
        events: ['invoice.signed'],
      })
      receiver.secret = created.body.data.secret
      const id = created.body.data.id
      const business = DEV.supplier.businessId
      expect(await cli('webhooks', 'list', '--business', business)).toEqual([
        {
          id,
          url: receiver.url,
          events: ['invoice.signed'],
          status: 'ACTIVE',
          created_at: expect.any(String),
        },
      ])

      const accepted = await clients.app.post<any>('/api/v1/app/invoice/batch', {
        action: 'sign',
        invoices: [buildInvoice()],
      })
      await eventually(() => expect(receiver.unique()).toHaveLength(1))
      const eventId = receiver.unique()[0]!.id
      const log = await cli(
        'webhooks',
        'deliveries',
        '--business',
        business,
        '--subscription',
        id,
        '--status',
        'delivered',
      )
      expect(
        log.content.map((d: { event_id: string; attempts: number }) => [d.event_id, d.attempts]),
      ).toEqual([[eventId, 1]])

      const again = await cli(
        'webhooks',
        'redeliver',
        '--url',
        api.url,
        '--key',
        DEV.clients.admin.apiKey,
        '--secret',
        DEV.clients.admin.secret,
        '--subscription',
        id,
        '--event',
        eventId,
      )
      expect(again).toMatchObject({ status: 'SUCCESS', data: { event_id: eventId, status: 'PENDING' } })
      await eventually(() => expect(receiver.received.filter((r) => r.id === eventId)).toHaveLength(2))

      const batch = await eventually(async () => {
        const shown = await cli('batch', 'show', '--batch', accepted.body.batch_id)
        expect(shown.status).toBe('COMPLETED')
        return shown
      })
      expect(batch).toMatchObject({ batch_id: accepted.body.batch_id, total: 1, succeeded: 1, failed: 0 })
    } finally {
      await receiver.close()
    }
  })
})
