/**
 * What bench/cost.ts creates before a request that needs something first (a subscription, a party, a
 * key, a batch, a delivery...), and removes after it: none of it is timed or counted. Each helper
 * throws when the API refuses, so a bench never prices a failure.
 */
import { randomUUID } from 'node:crypto'
import { ApiClient } from '#client/api-client.ts'
import { partyCreateDocs } from '#lib/service/endpoints/parties.ts'
import { DEV, DEV_TEST } from '../../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../../test/fixtures/invoices/build.ts'
import { scanQr } from '../../test/support/qr-scan.ts'
import { receiptVerifyUrl } from '#client/receipts/verify-url.ts'
import { hashOf, type Receipt, registerTill, type Till } from '../../test/support/receipts.ts'
import { type EventReceiver, startEventReceiver } from '../../test/support/standard-webhook-receiver.ts'
import { areaA, irnRequest, notifyAdmin, signedInvoice } from '../request-cost/harness.ts'

/** The sandbox's (test-mode) clients of the dev business (CONTRACT section 15). */
export const testModeA = (url: string, which: 'app' | 'admin') =>
  new ApiClient(url, { area: 'A', credentials: DEV_TEST.clients[which] })
export const testModeSwitch = (url: string) =>
  new ApiClient(url, {
    area: 'B',
    credentials: { token: DEV_TEST.switch.token, secret: DEV_TEST.switch.secret },
  })

type Reply = { status: number; body: any }
/** The reply's `data`, when its status is the one expected. */
function dataOf(what: string, reply: Reply, expected: number) {
  if (reply.status !== expected)
    throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
  return reply.body?.data ?? reply.body
}

/** A 13-digit Tax ID no other party of the run has. */
let seq = 0
export const freshTin = () => `8${String(Date.now()).slice(-9)}${String(++seq % 1000).padStart(3, '0')}`

/** The party the API's documentation shows (its postal address inline), for the dev supplier, a fresh TIN. */
export const partyBody = (tin = freshTin()) => ({
  ...(partyCreateDocs().examples!.inlineAddress!.value as Record<string, unknown>),
  business_id: DEV.supplier.businessId,
  tin,
})

/** Creates a party of the dev supplier; its id. */
export async function createdParty(url: string): Promise<string> {
  return dataOf('party', await areaA(url, 'app').post('/api/v1/invoice/party', partyBody()), 201).id
}

/** A signed invoice transmitted to the dev buyer; its IRN. */
export async function transmittedInvoice(url: string): Promise<string> {
  const irn = await signedInvoice(url)
  dataOf('transmit', await areaA(url, 'app').post(`/api/v1/invoice/transmit/${irn}`, undefined), 200)
  return irn
}

/** An IRN generated for the dev supplier (GENERATED). */
export async function generatedIrn(url: string): Promise<string> {
  return dataOf('generate-irn', await areaA(url, 'si').post('/api/v1/si/generate-irn', irnRequest()), 200).irn
}

/** The text of a QR code generated for the dev supplier, as a scanner reads it. */
export async function qrText(url: string): Promise<string> {
  const reply = await areaA(url, 'si').post<any>('/api/v1/si/generate-qr-code', irnRequest())
  return scanQr(dataOf('generate-qr-code', reply, 200).qr_code_file_bytes)
}

/** A batch of `count` invoices to sign, as the batch endpoint takes it. */
export const batchBody = (count: number) => ({
  action: 'sign',
  invoices: Array.from({ length: count }, () => buildInvoice({ irn: newIrn() })),
})

export async function submittedBatch(url: string): Promise<string> {
  const reply = await areaA(url, 'app').post<any>('/api/v1/app/invoice/batch', batchBody(2))
  if (reply.status !== 202) throw new Error(`batch answered ${reply.status}`)
  return reply.body.batch_id
}

// ---- Webhooks: one local receiver for the run, a subscription per round (at most 16 a business) ----

let receiver: EventReceiver | undefined
/** The run's event receiver, started on first use; `closeReceiver` at the end. */
const hooks = async () => {
  receiver ??= await startEventReceiver()
  return receiver
}
export async function closeReceiver() {
  await receiver?.close()
  receiver = undefined
}

/** invoice.signed to the run's receiver; one subscription per URL and event type: each its own path. */
export const subscriptionBody = async () => ({
  url: `${(await hooks()).url}/${randomUUID()}`,
  events: ['invoice.signed'],
})

/** A subscription of the dev supplier (live; `test` for the sandbox's) to invoice.signed; its id. */
export async function subscribed(url: string, mode: 'live' | 'test' = 'live'): Promise<string> {
  const admin = mode === 'live' ? areaA(url, 'admin') : testModeA(url, 'admin')
  return dataOf('subscribe', await admin.post('/api/v1/webhooks', await subscriptionBody()), 201).id
}

/** Removes a subscription made by `subscribed` (the 16 a business may have are not used up). */
export async function unsubscribed(url: string, id: string, mode: 'live' | 'test' = 'live') {
  const admin = mode === 'live' ? areaA(url, 'admin') : testModeA(url, 'admin')
  const reply = await admin.request('DELETE', `/api/v1/webhooks/${id}`)
  if (reply.status !== 204 && reply.status !== 404) throw new Error(`unsubscribe answered ${reply.status}`)
}

export interface Delivered {
  id: string
  eventId: string
}

/** A subscription with one delivery (an invoice signed after it): its id and the event's. */
export async function delivered(url: string): Promise<Delivered> {
  const id = await subscribed(url)
  await signedInvoice(url)
  for (let attempt = 0; attempt < 100; attempt++) {
    const reply = await areaA(url, 'admin').get<any>(`/api/v1/webhooks/${id}/deliveries`)
    const first = dataOf('deliveries', reply, 200).content[0]
    if (first) return { id, eventId: first.event_id }
    await new Promise((ok) => setTimeout(ok, 100))
  }
  throw new Error('no delivery of the signed invoice was recorded')
}

/** A recovery task started on a fresh subscription: both ids. */
export async function recovering(url: string): Promise<{ id: string; task: string }> {
  const id = await subscribed(url)
  const since = new Date(Date.now() - 60_000).toISOString()
  const reply = await areaA(url, 'admin').post<any>(`/api/v1/webhooks/${id}/recover`, { since })
  return { id, task: dataOf('recover', reply, 202).id }
}

/** The newest event of the dev supplier (an invoice signed first). */
export async function newestEvent(url: string): Promise<string> {
  await signedInvoice(url)
  const reply = await areaA(url, 'admin').get<any>('/api/v1/events?size=1')
  return dataOf('events', reply, 200).content[0].id
}

// ---- API keys: at most 20 active a mode, so each round's key is revoked after it ----

/** A live SI key issued by the dev ADMIN key: its id. */
export async function issuedKey(url: string): Promise<string> {
  return dataOf('issue', await areaA(url, 'admin').post('/api/v1/keys', { role: 'SI', mode: 'live' }), 201)
    .key
}

export async function revokedKey(url: string, key: string) {
  const reply = await areaA(url, 'admin').request('DELETE', `/api/v1/keys/${key}`)
  if (reply.status !== 204) throw new Error(`revoke answered ${reply.status}`)
}

/** The key of a reply of POST /keys or POST /keys/{key}/roll. */
export const keyOf = (reply: { body?: unknown }) =>
  (reply.body as Reply['body'])?.data?.key as string | undefined

// ---- Notifications (Area C admin): a fresh product per template ----

export const templateBody = (productCode = `COST${randomUUID().slice(0, 8).toUpperCase()}`) => ({
  message: 'Payment of {{amount}} received',
  messageType: 0,
  productCode,
})

/** A template made fresh: its id and product. */
export async function createdTemplate(url: string): Promise<{ templateID: number; productCode: string }> {
  return dataOf('template', await notifyAdmin(url).post('/notification/template', templateBody()), 201)
}

/** An address no other round adds. */
export const costEmail = () => `cost-${randomUUID().slice(0, 8)}@example.com`

export async function addedEmail(url: string): Promise<string> {
  const email = costEmail()
  dataOf('email', await notifyAdmin(url).post('/notification/email', { email: [email] }), 201)
  return email
}

/** Receipts in one counted report (bench/cost.ts: the receipts-report row is this batch, its units / this per receipt). */
export const RECEIPT_BATCH = 10

/** The till the receipts are signed with, per target: registered once (a business has at most 100 active devices). */
const tills = new Map<string, Promise<Till>>()

/** A batch of RECEIPT_BATCH new receipts of one till, each the next of its chain (a buyerless B2C invoice). */
export async function receiptBatch(url: string): Promise<Receipt[]> {
  if (!tills.has(url))
    tills.set(
      url,
      registerTill(areaA(url, 'admin'), 'Ed25519', `Cost till ${randomUUID().slice(0, 8)}`).then(
        (r) => r.till,
      ),
    )
  const till = await tills.get(url)!
  return Array.from({ length: RECEIPT_BATCH }, () => till.next())
}

/**
 * A till of its own with RECEIPT_BATCH receipts reported, per target (the devices' reads, the chain,
 * the verification page and the compliance report read it): its id, and the URL of its last receipt's QR.
 */
const reportedTills = new Map<string, Promise<{ deviceId: string; verifyUrl: string }>>()
export function reportedTill(url: string): Promise<{ deviceId: string; verifyUrl: string }> {
  if (!reportedTills.has(url))
    reportedTills.set(
      url,
      (async () => {
        const { till } = await registerTill(
          areaA(url, 'admin'),
          'Ed25519',
          `Cost read till ${randomUUID().slice(0, 8)}`,
        )
        const receipts = Array.from({ length: RECEIPT_BATCH }, () => till.next())
        dataOf('receipts', await areaA(url, 'si').post('/api/v1/receipts', { receipts }), 200)
        const last = receipts.at(-1)!
        const verifyUrl = receiptVerifyUrl(url, {
          irn: last.irn,
          hash: hashOf(last),
          device_id: till.deviceId,
          counter: last.device.counter,
          signature: last.signature,
        })
        return { deviceId: till.deviceId, verifyUrl }
      })(),
    )
  return reportedTills.get(url)!
}

/** A device registered for the request to revoke (a business holds at most 100 active ones). */
export async function registeredDevice(url: string): Promise<string> {
  const { till } = await registerTill(
    areaA(url, 'admin'),
    'Ed25519',
    `Cost device ${randomUUID().slice(0, 8)}`,
  )
  return till.deviceId
}

/** Revokes a device a counted registration made, so the rounds stay under the active-device bound. */
export async function revokedDevice(url: string, deviceId: string) {
  const reply = await areaA(url, 'admin').request('DELETE', `/api/v1/devices/${deviceId}`)
  if (reply.status !== 200)
    throw new Error(`device revoke answered ${reply.status}: ${JSON.stringify(reply.body)}`)
}
