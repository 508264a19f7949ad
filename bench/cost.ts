/**
 * What a request costs, per function of the route table, in dollars per million requests, beside its
 * floor (what the route logically needs) and the ratio to it (issue 34, point 8).
 *
 *   npx tsx bench/cost.ts            (ROUNDS=20 counted requests per function after WARMUP=3;
 *                                     ONLY=<id fragment>[,<fragment>...] for some functions)
 *
 * The routes of lib/service/routes.ts are grouped by function (a function's routes, v1 and v2 and the
 * authority's paths, run the same handler and cost the same); each function with a representative
 * request below is measured on DynamoDB Local through bench/request-cost's machinery (harness.ts,
 * target.ts --cost): the checkout in its own process with KMS pointed at a counted stand-in and every
 * DynamoDB call asked for ReturnConsumedCapacity INDEXES. What is measured, median per request:
 *
 * - DynamoDB read and write units as DynamoDB Local reports them (table and indexes, transactions
 *   counted twice, as DynamoDB does); a write refused by its condition reports none and is priced from
 *   its item's size by the published rules (bench/cost/pricing.ts: writeUnits). The rate limit leases'
 *   writes (RATE#, lib/platform/auth/rate-lease.ts) are the exception to the median: one lease serves
 *   many requests, so their units are the mean over the counted requests (the amortised lease), added
 *   to the median of the other write units. The lease's size follows the container's rate; here one
 *   process serves every function one request at a time, and the dev key's leases are shared by
 *   every function measured, so the amortised figure is a warm busy container's;
 * - the bytes of the items read and written;
 * - the handler's duration as its request line logs it (`durationMs`), billed at the function's
 *   memory (API_FUNCTION_MEMORY_MB, infra/constructs/api-function.ts) on Arm;
 * - one HTTP API request (per 512 KB of body), KMS requests (the stand-in's count);
 * - the bytes logged (every line the server writes at LOG_LEVEL INFO, as in AWS, EMF metric lines
 *   included) plus Lambda's own START/END/REPORT lines (LAMBDA_PLATFORM_LOG_BYTES: none at the
 *   functions' WARN system log level).
 *
 * Prices, region and sources: bench/cost/pricing.ts. Not priced: X-Ray traces (tracing is active:
 * $5 per million traces recorded, sampled at 1 a second plus 5 %), the stream consumers' work after a
 * write (the history indexer, webhooks: their own invocations and writes), storage and data transfer.
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { API_FUNCTION_MEMORY_MB, SYSTEM_LOG_LEVEL } from '../infra/constructs/api-function.ts'
import { functionsOf, routes } from '#lib/service/routes.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../test/fixtures/invoices/build.ts'
import { deviceKeyPair } from '../test/support/receipts.ts'
import { floorCost, PRICES, perMillion, requestCost, writeUnits } from './cost/pricing.ts'
import {
  addedEmail,
  batchBody,
  closeReceiver,
  costEmail,
  createdParty,
  createdTemplate,
  type Delivered,
  delivered,
  generatedIrn,
  issuedKey,
  keyOf,
  newestEvent,
  partyBody,
  qrText,
  RECEIPT_BATCH,
  receiptBatch,
  registeredDevice,
  reportedTill,
  revokedDevice,
  recovering,
  revokedKey,
  submittedBatch,
  subscribed,
  subscriptionBody,
  templateBody,
  testModeA,
  testModeSwitch,
  transmittedInvoice,
  unsubscribed,
} from './cost/setup.ts'
import {
  areaA,
  type BenchRequest,
  dynamoCalls,
  kmsTotal,
  median,
  merchantClient,
  notifyAdmin,
  REQUESTS,
  signedInvoice,
  targetWorkers,
  startTarget,
  stopTarget,
  type Target,
  type Usage,
} from './request-cost/harness.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 3)
/** Only the functions whose id contains this, or one of these (e.g. ONLY=transactions,webhook). BREAKDOWN=1 prints where each function's writes went. */
const ONLY = process.env.ONLY
const HERE = resolve(import.meta.dirname, '..')

/**
 * Lambda's START, END and REPORT lines per invocation (with the X-Ray trace line of active tracing):
 * about 350 bytes, INFO system logs, so none at the WARN system log level the functions run at.
 */
const LAMBDA_PLATFORM_LOG_BYTES = SYSTEM_LOG_LEVEL === 'WARN' ? 0 : 350

/** A strongly consistent read of what was read: 1 unit per 4 KB; eventually consistent, half. */
const eventual = (bytes: number) => (bytes > 0 ? Math.ceil(bytes / 4096) / 2 : 0)

interface Floor {
  /** What the route logically needs, in words. */
  says: string
  units: (u: Usage) => { readUnits: number; writeUnits: number }
}

/** Every signed request (Areas A and B): the replay guard's one write, which the contract requires. */
const REPLAY = 1
const floors = {
  none: { says: 'nothing stored or read', units: () => ({ readUnits: 0, writeUnits: 0 }) },
  signedRead: {
    says: 'the replay write; its reply read eventually consistent (bytes read / 4 KB / 2)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: REPLAY }),
  },
  signedStatic: {
    says: 'the replay write (the list itself could be in the bundle)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY }),
  },
  bearerRead: {
    says: 'its page read eventually consistent (bytes read / 4 KB / 2)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: 0 }),
  },
  register: {
    says: 'the replay write and one registration item (1 KB)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY + 1 }),
  },
  validate: {
    says: 'the replay write, the validated invoice item (its KB) and one audit event, not transactional',
    units: (u) => ({ readUnits: 0, writeUnits: REPLAY + writeUnits(u.largestWritten) + 1 }),
  },
  sign: {
    says: 'the replay write, the invoice item (its KB) and one audit event, not transactional',
    units: (u) => ({ readUnits: 0, writeUnits: REPLAY + writeUnits(u.largestWritten) + 1 }),
  },
  transmit: {
    says: 'the replay write, the invoice read, its status rewritten (its KB), one inbox item, one audit event',
    units: (u) => ({
      readUnits: eventual(u.largestWritten),
      writeUnits: REPLAY + writeUnits(u.largestWritten) + 2,
    }),
  },
  transfer: {
    says: 'the debit and the transfer record (by requestId: also the replay guard) in one transaction, 2 items x 2',
    units: () => ({ readUnits: 0, writeUnits: 4 }),
  },
  reversal: {
    says: 'the original read (1); the credit and the reversal record (also the replay guard) in one transaction, 2 x 2',
    units: () => ({ readUnits: 1, writeUnits: 4 }),
  },
  update: {
    says: 'the replay write; the invoice read and its payment status rewritten (its KB), one audit event',
    units: (u) => ({
      readUnits: eventual(u.largestWritten),
      writeUnits: REPLAY + writeUnits(u.largestWritten) + 1,
    }),
  },
  balance: {
    says: 'the replay write; one item read strongly consistent (1): the account, or the request record',
    units: () => ({ readUnits: 1, writeUnits: REPLAY }),
  },
  created: {
    says: 'the replay write and the one item it creates (1 KB)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY + 1 }),
  },
  rewrite: {
    says: 'the replay write; one item read eventually consistent (its KB / 4 / 2) and rewritten (1 KB)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: REPLAY + 1 }),
  },
  oneWrite: {
    says: 'the replay write and one conditional write (1 KB), no read',
    units: () => ({ readUnits: 0, writeUnits: REPLAY + 1 }),
  },
  batch: {
    says: "the replay write and the batch stored with its invoices (its KB); the signing is the worker's",
    units: (u) => ({ readUnits: 0, writeUnits: REPLAY + writeUnits(u.largestWritten) }),
  },
  bearerWrite: {
    says: 'one item written (1 KB); a bearer token has no replay write',
    units: () => ({ readUnits: 0, writeUnits: 1 }),
  },
  template: {
    says: 'the template item (1 KB) and its integer id taken from a counter (1); no replay write',
    units: () => ({ readUnits: 0, writeUnits: 2 }),
  },
  device: {
    says: 'the replay write; the device (1 KB), its public entry by id (1 KB) and the active count, in one transaction (3 items x 2)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY + 6 }),
  },
  deviceChange: {
    says: 'the replay write; the device read (its KB / 4 / 2), it and its public entry rewritten and the active count lowered, in one transaction (3 x 2)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: REPLAY + 6 }),
  },
  publicRead: {
    says: 'its reads eventually consistent (bytes read / 4 KB / 2); no credential, so no replay write',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: 0 }),
  },
  receipts: {
    says: `the replay write; per receipt (${RECEIPT_BATCH} a batch) its largest item (its KB), its list item on its index keys (table, type, currency: 3) and one audit event; the device's chain item once (1 KB); not transactional`,
    units: (u) => ({
      readUnits: 0,
      writeUnits: REPLAY + RECEIPT_BATCH * (writeUnits(u.largestWritten) + 3 + 1) + 1,
    }),
  },
} satisfies Record<string, Floor>

interface Representative extends BenchRequest {
  /** What is sent, in words. */
  sends: string
  floor: Floor
  /** The webhook consumers run for it (a delivery, a queued recovery): bench/request-cost/target.ts. */
  workers?: boolean
  /** What is removed after the counted request (not counted): what would otherwise pile up to a limit. */
  after?: (url: string, prepared: unknown, reply: { status: number; body?: unknown }) => Promise<void>
}

const get = (path: string, which: 'si' | 'app' | 'admin' = 'si'): BenchRequest => ({
  expect: 200,
  request: (url) => areaA(url, which).get(path),
})
const withInvoice = (
  path: (irn: string) => string,
  method: 'get' | 'post',
  which: 'si' | 'app' = 'app',
): BenchRequest => ({
  expect: 200,
  prepare: (url) => signedInvoice(url),
  request: (url, irn) =>
    method === 'get'
      ? areaA(url, which).get(path(irn as string))
      : areaA(url, which).post(path(irn as string), undefined),
})

/** A representative request per function (by functionId); functions without one are listed as such. */
const REPRESENTATIVES: Record<string, Representative> = {
  'health-check': {
    sends: 'GET /api/v1/health-check',
    expect: 200,
    request: (url) => fetch(`${url}/api/v1/health-check`),
    floor: floors.none,
  },
  openapi: {
    sends: 'GET /api/openapi.json',
    expect: 200,
    request: (url) => fetch(`${url}/api/openapi.json`),
    floor: floors.none,
  },
  'si-validate': { sends: 'POST si/validate, 10 lines', ...REQUESTS.siValidate, floor: floors.validate },
  'app-invoice-validate': {
    sends: 'POST app/invoice/validate, 10 lines',
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/app/invoice/validate', buildInvoice({ irn: newIrn() })),
    floor: floors.validate,
  },
  'app-invoice-sign': {
    sends: 'POST app/invoice/sign, 10 lines, notes',
    ...REQUESTS.appSign,
    floor: floors.sign,
  },
  'si-generate-irn': { sends: 'POST si/generate-irn', ...REQUESTS.generateIrn, floor: floors.register },
  'si-generate-qr-code': {
    sends: 'POST si/generate-qr-code',
    ...REQUESTS.generateQr,
    floor: floors.register,
  },
  'si-get-invoice': {
    sends: 'GET si/get-invoice/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/si/get-invoice/${irn}`, 'get', 'si'),
    floor: floors.signedRead,
  },
  'app-invoice-confirm': {
    sends: 'GET app/invoice/confirm/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/app/invoice/confirm/${irn}`, 'get'),
    floor: floors.signedRead,
  },
  'app-invoice-transmit': {
    sends: 'POST invoice/transmit/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/invoice/transmit/${irn}`, 'post'),
    floor: floors.transmit,
  },
  'invoice-transmit-pull': {
    sends: 'GET invoice/transmit/pull?size=5 (a full page)',
    ...REQUESTS.pull,
    floor: floors.signedRead,
  },
  'invoice-search': {
    sends: 'GET invoices?size=10',
    ...get('/api/v1/invoices?size=10', 'app'),
    floor: floors.signedRead,
  },
  'transactions-transfer': {
    sends: 'POST transactions/transfer',
    ...REQUESTS.transfer,
    floor: floors.transfer,
  },
  'transactions-reversal': {
    sends: 'POST transactions/reversal of a transfer',
    ...REQUESTS.reversal,
    floor: floors.reversal,
  },
  'transactions-balance-enquiry': {
    sends: 'POST transactions/balance-enquiry',
    ...REQUESTS.balance,
    floor: floors.balance,
  },
  'transactions-name-enquiry': {
    sends: 'POST transactions/name-enquiry',
    ...REQUESTS.nameEnquiry,
    floor: floors.balance,
  },
  'transactions-status-query': {
    sends: 'POST transactions/status-query of a transfer, by requestId',
    ...REQUESTS.statusQuery,
    floor: floors.balance,
  },
  'merchant-transactions': {
    sends: 'GET merchant/transactions?size=50',
    ...REQUESTS.merchantTransactions,
    floor: floors.bearerRead,
  },
  'webhook-subscription-list': {
    sends: 'GET webhooks (ADMIN)',
    ...get('/api/v1/webhooks', 'admin'),
    floor: floors.signedRead,
  },
  'event-list': { sends: 'GET events (ADMIN)', ...get('/api/v1/events', 'admin'), floor: floors.signedRead },
  'api-key-list': { sends: 'GET keys (ADMIN)', ...get('/api/v1/keys', 'admin'), floor: floors.signedRead },
  'si-generate-invoice-number': {
    sends: 'POST si/generate-invoice-number',
    expect: 200,
    request: (url) =>
      areaA(url, 'si').post('/api/v1/si/generate-invoice-number', {
        service_id: DEV.supplier.serviceId,
        business_id: DEV.supplier.businessId,
      }),
    floor: floors.register,
  },
  'resource-verify-tin': {
    sends: 'POST resource/verify-tin',
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/resource/verify-tin', { tin: DEV.supplier.tin }),
    floor: floors.signedRead,
  },
  'app-invoice-update': {
    sends: 'PATCH app/invoice/update/{irn} PAID, of a signed invoice',
    expect: 200,
    prepare: (url) => signedInvoice(url),
    request: (url, irn) =>
      areaA(url, 'app').request('PATCH', `/api/v1/app/invoice/update/${irn as string}`, {
        payment_status: 'PAID',
      }),
    floor: floors.update,
  },
  docs: {
    sends: 'GET /api/docs',
    expect: 200,
    request: (url) => fetch(`${url}/api/docs`),
    floor: floors.none,
  },
  'notification-template-list': {
    sends: 'GET /notification/template?product=AIRTIME',
    expect: 200,
    request: (url) => notifyAdmin(url).get('/notification/template?product=AIRTIME'),
    floor: floors.bearerRead,
  },
  'notification-email-list': {
    sends: 'GET /notification/email',
    expect: 200,
    request: (url) => notifyAdmin(url).get('/notification/email'),
    floor: floors.bearerRead,
  },
  // ---- What needs something created first (bench/cost/setup.ts) ----
  'app-invoice-validate-irn': {
    sends: 'POST app/invoice/validate-irn of a generated IRN',
    expect: 200,
    prepare: generatedIrn,
    request: (url, irn) =>
      areaA(url, 'app').post('/api/v1/app/invoice/validate-irn', {
        irn,
        business_id: DEV.supplier.businessId,
      }),
    floor: floors.rewrite,
  },
  'app-invoice-batch-submit': {
    sends: 'POST app/invoice/batch, 2 invoices to sign',
    expect: 202,
    request: (url) => areaA(url, 'app').post('/api/v1/app/invoice/batch', batchBody(2)),
    floor: floors.batch,
  },
  'app-invoice-batch-status': {
    sends: 'GET app/invoice/batch/{batch_id} of a 2-invoice batch',
    expect: 200,
    prepare: submittedBatch,
    request: (url, id) => areaA(url, 'app').get(`/api/v1/app/invoice/batch/${id as string}`),
    floor: floors.signedRead,
  },
  'invoice-confirm-receipt': {
    sends: "PATCH invoice/transmit/{irn}: the buyer's receipt of a transmitted invoice",
    expect: 200,
    prepare: transmittedInvoice,
    request: (url, irn) => areaA(url, 'buyer').request('PATCH', `/api/v1/invoice/transmit/${irn as string}`),
    floor: floors.update,
  },
  'invoice-transmit-lookup': {
    sends: 'GET invoice/transmit/lookup/{irn} by the buyer of a transmitted invoice',
    expect: 200,
    prepare: transmittedInvoice,
    request: (url, irn) => areaA(url, 'buyer').get(`/api/v1/invoice/transmit/lookup/${irn as string}`),
    floor: floors.signedRead,
  },
  'invoice-pdf': {
    sends: 'GET invoices/{irn}/pdf of a signed invoice, 10 lines',
    ...withInvoice((irn) => `/api/v1/invoices/${irn}/pdf`, 'get', 'si'),
    floor: floors.signedRead,
  },
  'invoice-party-create': {
    sends: 'POST invoice/party, a fresh TIN',
    expect: 201,
    request: (url) => areaA(url, 'app').post('/api/v1/invoice/party', partyBody()),
    floor: floors.created,
  },
  'invoice-party-search': {
    sends: "GET invoice/party/{business_id}, the supplier's parties",
    expect: 200,
    prepare: createdParty,
    request: (url) => areaA(url, 'app').get(`/api/v1/invoice/party/${DEV.supplier.businessId}`),
    floor: floors.signedRead,
  },
  'entity-read': {
    sends: "GET entity/{id}, the caller's business",
    ...get(`/api/v1/entity/${DEV.supplier.businessId}`, 'app'),
    floor: floors.signedRead,
  },
  'transmit-lookup-tin': {
    sends: "GET invoice/transmit/lookup/tin/{tin}, the buyer's TIN",
    ...get(`/api/v1/invoice/transmit/lookup/tin/${DEV.buyer.tin}`, 'app'),
    floor: floors.signedRead,
  },
  'transmit-lookup-party': {
    sends: 'GET invoice/transmit/lookup/party/{party_id} of a fresh party',
    expect: 200,
    prepare: createdParty,
    request: (url, id) => areaA(url, 'app').get(`/api/v1/invoice/transmit/lookup/party/${id as string}`),
    floor: floors.signedRead,
  },
  'resource-verify-qr': {
    sends: 'POST resource/verify-qr of a generated QR code',
    expect: 200,
    prepare: qrText,
    request: (url, qr) => areaA(url, 'si').post('/api/v1/resource/verify-qr', { qr }),
    floor: floors.signedRead,
  },
  'webhook-subscription-create': {
    sends: 'POST webhooks (ADMIN), invoice.signed to a local receiver',
    expect: 201,
    request: async (url) => areaA(url, 'admin').post('/api/v1/webhooks', await subscriptionBody()),
    after: (url, _, reply) => unsubscribed(url, (reply.body as { data: { id: string } }).data.id),
    floor: floors.created,
  },
  'webhook-subscription-delete': {
    sends: 'DELETE webhooks/{id} (ADMIN) of a fresh subscription',
    expect: 204,
    prepare: subscribed,
    request: (url, id) => areaA(url, 'admin').request('DELETE', `/api/v1/webhooks/${id as string}`),
    floor: floors.oneWrite,
  },
  'webhook-deliveries-list': {
    workers: true,
    sends: 'GET webhooks/{id}/deliveries (ADMIN), one delivery',
    expect: 200,
    prepare: delivered,
    request: (url, d) => areaA(url, 'admin').get(`/api/v1/webhooks/${(d as Delivered).id}/deliveries`),
    after: (url, d) => unsubscribed(url, (d as Delivered).id),
    floor: floors.signedRead,
  },
  'webhook-delivery-redeliver': {
    workers: true,
    sends: 'POST webhooks/{id}/deliveries/{eventId}/redeliver (ADMIN) of a delivered event',
    expect: 202,
    prepare: delivered,
    request: (url, d) =>
      areaA(url, 'admin').post(
        `/api/v1/webhooks/${(d as Delivered).id}/deliveries/${(d as Delivered).eventId}/redeliver`,
        {},
      ),
    after: (url, d) => unsubscribed(url, (d as Delivered).id),
    floor: floors.rewrite,
  },
  'webhook-subscription-enable': {
    sends: 'POST webhooks/{id}/enable (test-mode ADMIN) of an active subscription',
    expect: 200,
    prepare: (url) => subscribed(url, 'test'),
    request: (url, id) => testModeA(url, 'admin').post(`/api/v1/webhooks/${id as string}/enable`, {}),
    after: (url, id) => unsubscribed(url, id as string, 'test'),
    floor: floors.rewrite,
  },
  'webhook-recovery-start': {
    workers: true,
    sends: 'POST webhooks/{id}/recover (ADMIN), the last minute',
    expect: 202,
    prepare: subscribed,
    request: (url, id) =>
      areaA(url, 'admin').post(`/api/v1/webhooks/${id as string}/recover`, {
        since: new Date(Date.now() - 60_000).toISOString(),
      }),
    after: (url, id) => unsubscribed(url, id as string),
    floor: floors.created,
  },
  'webhook-recovery-status': {
    workers: true,
    sends: 'GET webhooks/{id}/recover/{task} (ADMIN) of a started recovery',
    expect: 200,
    prepare: recovering,
    request: (url, r) => {
      const { id, task } = r as { id: string; task: string }
      return areaA(url, 'admin').get(`/api/v1/webhooks/${id}/recover/${task}`)
    },
    after: (url, r) => unsubscribed(url, (r as { id: string }).id),
    floor: floors.signedRead,
  },
  'event-get': {
    sends: 'GET events/{id} (ADMIN) of an invoice.signed event',
    expect: 200,
    prepare: newestEvent,
    request: (url, id) => areaA(url, 'admin').get(`/api/v1/events/${id as string}`),
    floor: floors.signedRead,
  },
  'api-key-issue': {
    sends: 'POST keys (ADMIN), a live SI key',
    expect: 201,
    request: (url) => areaA(url, 'admin').post('/api/v1/keys', { role: 'SI', mode: 'live' }),
    after: (url, _, reply) => revokedKey(url, keyOf(reply)!),
    floor: floors.created,
  },
  'api-key-roll': {
    sends: 'POST keys/{key}/roll (ADMIN) of a fresh key, a day of overlap',
    expect: 201,
    prepare: issuedKey,
    request: (url, key) =>
      areaA(url, 'admin').post(`/api/v1/keys/${key as string}/roll`, { overlap_seconds: 86400 }),
    after: (url, key) => revokedKey(url, key as string),
    floor: floors.rewrite,
  },
  'api-key-revoke': {
    sends: 'DELETE keys/{key} (ADMIN) of a fresh key',
    expect: 204,
    prepare: issuedKey,
    request: (url, key) => areaA(url, 'admin').request('DELETE', `/api/v1/keys/${key as string}`),
    floor: floors.oneWrite,
  },
  'test-clock-advance': {
    sends: 'POST /api/v1/test/clock/advance (test-mode ADMIN), 1 second',
    expect: 200,
    request: (url) => testModeA(url, 'admin').post('/api/v1/test/clock/advance', { seconds: 1 }),
    floor: floors.oneWrite,
  },
  'test-clock': {
    sends: 'GET /api/v1/test/clock (test-mode ADMIN)',
    expect: 200,
    request: (url) => testModeA(url, 'admin').get('/api/v1/test/clock'),
    floor: floors.signedRead,
  },
  'test-bank-clock-advance': {
    sends: "POST transactions/test/clock/advance (the sandbox's switch), 1 second",
    expect: 200,
    request: (url) => testModeSwitch(url).post('/api/v1/transactions/test/clock/advance', { seconds: 1 }),
    floor: floors.oneWrite,
  },
  'merchant-statement': {
    sends: "GET merchant/statement?date= today's",
    expect: 200,
    request: (url) =>
      merchantClient(url).get(`/api/v1/merchant/statement?date=${new Date().toISOString().slice(0, 10)}`),
    floor: floors.bearerRead,
  },
  'notification-template-create': {
    sends: 'POST /notification/template, a fresh product',
    expect: 201,
    request: (url) => notifyAdmin(url).post('/notification/template', templateBody()),
    floor: floors.template,
  },
  'notification-template-replace': {
    sends: 'PUT /notification/template/{templateId} of a fresh template',
    expect: 200,
    prepare: createdTemplate,
    request: (url, t) => {
      const { templateID, productCode } = t as { templateID: number; productCode: string }
      return notifyAdmin(url).request('PUT', `/notification/template/${templateID}`, {
        ...templateBody(productCode),
        message: 'Paid {{amount}}',
      })
    },
    floor: floors.bearerWrite,
  },
  'notification-email-add': {
    sends: 'POST /notification/email, one address',
    expect: 201,
    request: (url) => notifyAdmin(url).post('/notification/email', { email: [costEmail()] }),
    floor: floors.bearerWrite,
  },
  'receipts-report': {
    sends: `POST receipts, ${RECEIPT_BATCH} new receipts of one till (per receipt: the row / ${RECEIPT_BATCH})`,
    expect: 200,
    prepare: receiptBatch,
    request: (url, receipts) => areaA(url, 'si').post('/api/v1/receipts', { receipts }),
    floor: floors.receipts,
    after: async (_url, _prepared, reply) => {
      const results = (reply.body as { data?: { status: string }[] }).data ?? []
      const reported = results.filter((r) => r.status === 'REPORTED').length
      if (reported !== RECEIPT_BATCH) throw new Error(`${reported} of ${RECEIPT_BATCH} receipts REPORTED`)
    },
  },
  'device-register': {
    sends: 'POST devices (ADMIN), an Ed25519 till',
    expect: 201,
    request: (url) =>
      areaA(url, 'admin').post('/api/v1/devices', {
        name: `Cost till ${Date.now()}`,
        public_key: deviceKeyPair('Ed25519').publicJwk,
      }),
    floor: floors.device,
    after: (url, _prepared, reply) => revokedDevice(url, (reply.body as any).data.device_id),
  },
  'device-revoke': {
    sends: 'DELETE devices/{id} (ADMIN) of a fresh device',
    expect: 200,
    prepare: registeredDevice,
    request: (url, id) => areaA(url, 'admin').request('DELETE', `/api/v1/devices/${id}`),
    floor: floors.deviceChange,
  },
  'device-list': {
    sends: 'GET devices (ADMIN)',
    ...get('/api/v1/devices', 'admin'),
    floor: floors.signedRead,
  },
  'device-get': {
    sends: 'GET devices/{id} (ADMIN) of a till with 10 receipts',
    expect: 200,
    prepare: reportedTill,
    request: (url, t) => areaA(url, 'admin').get(`/api/v1/devices/${(t as { deviceId: string }).deviceId}`),
    floor: floors.signedRead,
  },
  'device-chain': {
    sends: 'GET devices/{id}/chain (ADMIN) of a till with 10 receipts',
    expect: 200,
    prepare: reportedTill,
    request: (url, t) =>
      areaA(url, 'admin').get(`/api/v1/devices/${(t as { deviceId: string }).deviceId}/chain`),
    floor: floors.signedRead,
  },
  'receipt-verify-page': {
    sends: "GET verify/r/{device_id}/{counter}, a reported receipt's QR URL (public)",
    expect: 200,
    prepare: reportedTill,
    request: (_url, t) => fetch((t as { verifyUrl: string }).verifyUrl),
    floor: floors.publicRead,
  },
  'compliance-report': {
    sends: "GET compliance/report (ADMIN) of today's receipts",
    expect: 200,
    prepare: reportedTill,
    request: (url) => {
      // Today in Lagos (UTC+1, no daylight saving): the receipts' issue day.
      const day = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10)
      return areaA(url, 'admin').get(`/api/v1/compliance/report?from=${day}&to=${day}`)
    },
    floor: floors.signedRead,
  },
  'notification-email-remove': {
    sends: 'DELETE /notification/email of an address added',
    expect: 200,
    prepare: addedEmail,
    request: (url, email) => notifyAdmin(url).request('DELETE', '/notification/email', { email: [email] }),
    floor: floors.bearerWrite,
  },
}

/** The reference lists: each function's first plain GET route under /api/v1/resource/, signed by SI. */
for (const [functionId, list] of functionsOf(routes)) {
  const route = list.find((r) => r.method === 'GET' && /^\/api\/v1\/resource\/[a-z-]+$/.test(r.path))
  if (!route || REPRESENTATIVES[functionId]) continue
  REPRESENTATIVES[functionId] = {
    sends: `GET ${route.path}`,
    ...get(route.path),
    // An unsigned list (the public keys) has no replay write to make.
    floor: route.auth === 'none' ? floors.none : floors.signedStatic,
  }
}

interface Measured {
  readUnits: number
  writeUnits: number
  indexWriteUnits: number
  /** Of writeUnits, the rate limit leases': amortised (a mean), not a median. */
  rateWriteUnits: number
  readKb: number
  writtenKb: number
  lambdaMs: number
  logBytes: number
  kms: number
  requestBytes: number
  floor: { readUnits: number; writeUnits: number }
  /** Whether any call reported no units and was priced from sizes. */
  estimated: boolean
  byKey: Usage['byKey']
}

async function once(target: Target, r: Representative): Promise<Measured> {
  const prepared = r.prepare ? await r.prepare(target.url) : undefined
  // What the preparation set going (a delivery) is done before counting.
  if (r.workers) await targetWorkers(target, 'drained')
  await dynamoCalls(target)
  const kmsBefore = kmsTotal(target)
  let requestBytes = 0
  const realFetch = globalThis.fetch
  // The body's size, for the HTTP API's 512 KB metering.
  globalThis.fetch = (input, init) => {
    requestBytes += typeof init?.body === 'string' ? Buffer.byteLength(init.body) : 0
    return realFetch(input, init)
  }
  const started = performance.now()
  let reply: { status: number }
  try {
    reply = await r.request(target.url, prepared)
  } finally {
    globalThis.fetch = realFetch
  }
  const clientMs = performance.now() - started
  if (reply.status !== r.expect) throw new Error(`${r.sends} answered ${reply.status}`)
  const { usage } = await dynamoCalls(target)
  // Its work is reset by the next round's first read of the counts.
  await r.after?.(target.url, prepared, reply)
  const u = usage!
  const failed = u.failedWrites.reduce((n, bytes) => n + writeUnits(bytes), 0)
  return {
    readUnits: u.readUnits,
    writeUnits: u.writeUnits + failed,
    indexWriteUnits: u.indexWriteUnits,
    rateWriteUnits: u.rateWriteUnits,
    readKb: u.readBytes / 1024,
    writtenKb: u.writtenBytes / 1024,
    // The handler's own line; the client's time if none was logged.
    lambdaMs: u.handlerMs.length ? u.handlerMs.reduce((a, b) => a + b, 0) : clientMs,
    logBytes: u.logBytes + LAMBDA_PLATFORM_LOG_BYTES,
    kms: kmsTotal(target) - kmsBefore,
    requestBytes,
    floor: r.floor.units(u),
    estimated: failed > 0,
    byKey: u.byKey,
  }
}

const money = (dollars: number) => perMillion(dollars).toFixed(2)
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0)

async function main() {
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')
  const functions = functionsOf(routes)
  console.log(
    `cost: ${ROUNDS} requests per function after ${WARMUP} warm-up, ${functions.size} functions, load ${load()}`,
  )
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  let target: Target | undefined
  const rows: string[] = []
  const notMeasured: string[] = []
  try {
    // Inside the try: a target that fails to start must not leave DynamoDB Local running.
    target = await startTarget('now', HERE, dynamo.endpoint, { cost: true })
    for (const [functionId, list] of functions) {
      if (ONLY && !ONLY.split(',').some((part) => functionId.includes(part))) continue
      const r = REPRESENTATIVES[functionId]
      const routeNames = `${list.length} route${list.length === 1 ? '' : 's'}: ${list[0]!.method} ${list[0]!.path}${list.length > 1 ? ', ...' : ''}`
      if (!r) {
        notMeasured.push(`${functionId} (${routeNames})`)
        continue
      }
      const samples: Measured[] = []
      try {
        if (r.workers) await targetWorkers(target, 'start')
        for (let round = 0; round < WARMUP + ROUNDS; round++) {
          const sample = await once(target, r)
          if (round >= WARMUP) samples.push(sample)
        }
      } catch (error) {
        notMeasured.push(`${functionId} (${routeNames}): ${(error as Error).message}`)
        continue
      } finally {
        if (r.workers) await targetWorkers(target, 'stop')
      }
      const m = (f: (s: Measured) => number) => median(samples.map(f))
      const usage = {
        readUnits: m((s) => s.readUnits),
        // The rate limit leases' writes fall on few requests (one a lease): their mean, what each
        // request pays amortised, beside the median of the rest.
        writeUnits: m((s) => s.writeUnits - s.rateWriteUnits) + mean(samples.map((s) => s.rateWriteUnits)),
        lambdaMs: m((s) => s.lambdaMs),
        memoryMb: API_FUNCTION_MEMORY_MB,
        requestBytes: m((s) => s.requestBytes),
        kmsRequests: m((s) => s.kms),
        logBytes: m((s) => s.logBytes),
      }
      const cost = requestCost(usage)
      const floor = { readUnits: m((s) => s.floor.readUnits), writeUnits: m((s) => s.floor.writeUnits) }
      const floorDollars = floorCost(floor)
      const estimated = samples.some((s) => s.estimated) ? ' (some from sizes)' : ''
      rows.push(
        `| ${functionId} | ${r.sends} (${list.length} route${list.length === 1 ? '' : 's'}) | ${usage.readUnits} / ${usage.writeUnits} (${m((s) => s.indexWriteUnits)})${estimated} | ${m((s) => s.readKb).toFixed(1)} / ${m((s) => s.writtenKb).toFixed(1)} | ${usage.lambdaMs.toFixed(0)} | ${usage.logBytes.toFixed(0)} | ${usage.kmsRequests} | ${money(cost.dynamodb)} | ${money(cost.lambda)} | ${money(cost.apiGateway)} | ${money(cost.kms)} | ${money(cost.logs)} | **${money(cost.total)}** | ${floor.readUnits} / ${floor.writeUnits}: ${r.floor.says} | ${money(floorDollars)} | ${(cost.total / floorDollars).toFixed(1)}x |`,
      )
      console.error(`  ${functionId}: done (load ${load()})`)
      // Where the last counted request's writes went, by key and call (bench/request-cost/target.ts).
      if (process.env.BREAKDOWN)
        for (const [name, { items, units, largest }] of Object.entries(samples.at(-1)?.byKey ?? {}).sort(
          (a, b) => b[1].units - a[1].units,
        ))
          console.error(`    ${name}: ${items} items, ${units} units by size, the largest ${largest} bytes`)
    }
  } finally {
    if (target) await stopTarget(target)
    await closeReceiver()
    await dynamo.stop()
  }
  console.log(
    `\nDynamoDB Local, sequential requests, medians of ${ROUNDS}; prices ${PRICES.region} as of ${PRICES.date} (bench/cost/pricing.ts); Lambda ${API_FUNCTION_MEMORY_MB} MB Arm; load at the end ${load()}`,
  )
  console.log(
    '| function | request (routes) | RRU / WRU (of which indexes) | KB read / written | Lambda ms | log bytes | KMS | DynamoDB $/M | Lambda $/M | API GW $/M | KMS $/M | Logs $/M | total $/M | floor RRU / WRU: what it needs | floor $/M | ratio |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|')
  for (const row of rows) console.log(row)
  console.log(`\n${rows.length} of ${functions.size} functions measured; not measured:`)
  for (const line of notMeasured) console.log(`- ${line}`)
}

await main()
