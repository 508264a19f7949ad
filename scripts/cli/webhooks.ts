import { readBatch } from '#lib/batches/repository.ts'
import { batchView } from '#lib/batches/views.ts'
import { ApiClient } from '#client/api-client.ts'
import { type DeliveryStatus, listDeliveries } from '#lib/webhooks/delivery-records.ts'
import { subscriptionsOf, viewOf } from '#lib/webhooks/subscriptions.ts'
import type { Command } from './command.ts'
import { optional, required } from './require.ts'

/**
 * Webhooks and batches for operators (CONTRACT section 11): read straight from the table like the
 * other commands; a redelivery goes through the API's own endpoint (it must reach the delivery queue,
 * which only the deployed or local API knows).
 */

const listHelp = `webhooks list: a business's webhook subscriptions (never their secrets).

Options:
  --business ID     the business id (required)

Example: npm run cli -- webhooks list --business 11111111-1111-4111-8111-111111111111`

const deliveriesHelp = `webhooks deliveries: one subscription's delivery log, newest first.

Options:
  --business ID       the business id (required)
  --subscription ID   the subscription id, wh_... (required)
  --status S          failed, pending or delivered (default: all)
  --cursor C          the next page: page.next_cursor of the previous one
  --size N            deliveries per page, at most 200 (default 50)

Example: npm run cli -- webhooks deliveries --business 11111111-1111-4111-8111-111111111111 --subscription wh_... --status failed`

const redeliverHelp = `webhooks redeliver: sends one event to a subscription again (same webhook-id), a new round of retries.

It calls POST /api/v1/webhooks/{id}/deliveries/{eventId}/redeliver with an ADMIN API key of the business.

Options:
  --url BASE          the API's base URL (required), e.g. http://127.0.0.1:3000
  --key KEY           an ADMIN x-api-key of the business (required)
  --secret SECRET     its API secret (required)
  --subscription ID   the subscription id, wh_... (required)
  --event ID          the event id, evt_... (required)

Example: npm run cli -- webhooks redeliver --url http://127.0.0.1:3000 --key dev-admin-key --secret dev-admin-secret --subscription wh_... --event evt_...`

const batchHelp = `batch show: a batch's status and each item's result, as GET /app/invoice/batch/{id} answers it.

Options:
  --batch ID          the batch id (required)

Example: npm run cli -- batch show --batch 6f1c...`

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2))

export const commands: Command[] = [
  {
    name: 'webhooks list',
    summary: "a business's webhook subscriptions",
    help: listHelp,
    options: { business: { type: 'string' } },
    async run(values) {
      const business = required(values, 'business', listHelp)
      print((await subscriptionsOf(business)).filter((s) => s.status !== 'DELETED').map(viewOf))
    },
  },
  {
    name: 'webhooks deliveries',
    summary: "a subscription's delivery log (attempts, last HTTP status, next attempt)",
    help: deliveriesHelp,
    options: {
      business: { type: 'string' },
      subscription: { type: 'string' },
      status: { type: 'string' },
      cursor: { type: 'string' },
      size: { type: 'string' },
    },
    async run(values) {
      const business = required(values, 'business', deliveriesHelp)
      const id = required(values, 'subscription', deliveriesHelp)
      const subscription = (await subscriptionsOf(business)).find((s) => s.id === id)
      if (!subscription) {
        console.error(`No subscription ${id} for business ${business}`)
        process.exit(1)
      }
      const status = optional(values, 'status')?.toUpperCase()
      if (status && !['FAILED', 'PENDING', 'DELIVERED'].includes(status)) {
        console.error(`--status must be failed, pending or delivered.\n\n${deliveriesHelp}`)
        process.exit(2)
      }
      const size = Math.min(200, Number(optional(values, 'size') ?? 50))
      if (!Number.isInteger(size) || size < 1) {
        console.error(`--size must be a whole number from 1.\n\n${deliveriesHelp}`)
        process.exit(2)
      }
      const cursor = optional(values, 'cursor')
      print(
        await listDeliveries(id, {
          ...(status ? { status: status as DeliveryStatus } : {}),
          ...(cursor ? { cursor } : {}),
          size,
        }),
      )
    },
  },
  {
    name: 'webhooks redeliver',
    summary: 'send one event to a subscription again (through the API)',
    help: redeliverHelp,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      secret: { type: 'string' },
      subscription: { type: 'string' },
      event: { type: 'string' },
    },
    async run(values) {
      const api = new ApiClient(required(values, 'url', redeliverHelp), {
        area: 'A',
        credentials: {
          apiKey: required(values, 'key', redeliverHelp),
          secret: required(values, 'secret', redeliverHelp),
        },
      })
      const id = required(values, 'subscription', redeliverHelp)
      const event = required(values, 'event', redeliverHelp)
      const reply = await api.post(`/api/v1/webhooks/${id}/deliveries/${event}/redeliver`, {})
      print(reply.body)
      if (reply.status !== 202) process.exit(1)
    },
  },
  {
    name: 'batch show',
    summary: "a batch's status and each item's result",
    help: batchHelp,
    options: { batch: { type: 'string' } },
    async run(values) {
      const id = required(values, 'batch', batchHelp)
      const batch = await readBatch(id)
      if (!batch) {
        console.error(`No batch ${id}`)
        process.exit(1)
      }
      print(batchView(batch.header, batch.items))
    },
  },
]
