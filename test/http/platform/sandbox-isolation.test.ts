import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { type AwsCall, type AwsGuard, installAwsGuard } from '#lib/platform/aws-guard.ts'
import { currentMode, type Mode } from '#lib/platform/mode.ts'
import { type Route, routes } from '#lib/service/routes.ts'
import { DEV_TEST } from '../../../scripts/local/dev-credentials.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { type FuzzContext, type RawReply, SAMPLES, sendRaw } from '../../fuzz/requests.ts'
import { FUZZ_PRODUCT } from '../../fuzz/state.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, devClients, testModeClients } from '../../support/clients.ts'

/**
 * Live and test mode never meet (CONTRACT section 15, issue 23), checked on every route of the route
 * table at once, as the route fuzz test is: each route gets its valid sample request with the live
 * credentials and with their test twins, and every DynamoDB call any of it makes (the functions, and
 * the stream and queue consumers the requests set off) is observed through the local IAM guard, with
 * the mode of the work that made it. A test-mode call that names a live record of tenant data, or a
 * live call that names a test-mode record, is a cross-mode read or write: there must be none.
 */

/**
 * The records that have a mode (CONTRACT section 15: invoices and IRNs, counters, webhooks and
 * deliveries, batches, accounts, transfers, merchant history and statements, and what hangs off
 * them), by the key prefix their partition keys and index keys start with. The test's own list,
 * from the contract, not from lib/platform/db/keys.ts: a record that lost its mode must show up here.
 */
const TENANT_PREFIXES = [
  'IRN#',
  'BUYER#',
  'INVSEQ#',
  'INVLIST#',
  'ACCOUNT#',
  'BANKREQ#',
  'BANKSESSION#',
  'PROVREF#',
  'MHIST#',
  'OUTBOX#MERCHANT#',
  'OUTBOX#',
  'EVENTS#BUSINESS#',
  'EVENT#',
  'WEBHOOKS#',
  'WHDELIVERY#',
  'BATCHES#BUSINESS#',
  'BATCH#',
  'AUDIT#INVOICE#',
]
/** A business's invoice index and invoice-number counters (its profile, `BUSINESS#<id>`, has no mode). */
const BUSINESS_TENANT = /^BUSINESS#(T~)?[^#]+#INVOICES$/
const TEST_MARK = 'T~'

interface Observed {
  mode: Mode
  action: string
  key: string
}
const observed: Observed[] = []

/** What a call names: the partition of the table or index it reads or writes. */
function observe(call: AwsCall) {
  if (call.service !== 'dynamodb') return
  for (const request of call.requests)
    if (request.leadingKey)
      observed.push({ mode: currentMode(), action: request.action, key: request.leadingKey })
}

/** Why a call crossed modes, or undefined. */
function crossing({ mode, key }: Observed): string | undefined {
  if (mode === 'live') return key.includes(TEST_MARK) ? 'live work named a test-mode record' : undefined
  const prefix = TENANT_PREFIXES.find((p) => key.startsWith(p))
  if (prefix && !key.startsWith(`${prefix}${TEST_MARK}`)) return 'test work named a live record'
  if (BUSINESS_TENANT.test(key) && !key.startsWith(`BUSINESS#${TEST_MARK}`))
    return 'test work named a live invoice index'
  return undefined
}

/** The credentials of each mode: Area D (the operator's notification lists) has live ones only. */
const MODE_CREDENTIALS = {
  live: { apiClient: DEV.clients.admin, switch: DEV.switch, merchant: DEV.merchants[0] },
  test: { apiClient: DEV_TEST.clients.admin, switch: DEV_TEST.switch, merchant: DEV_TEST.merchant },
} as const

function credentialsFor(route: Route, mode: Mode, request: { method: string; target: string; body: string }) {
  const c = MODE_CREDENTIALS[mode]
  const timestamp = new Date().toISOString()
  switch (route.auth) {
    case 'api-signature':
      return signAreaA(c.apiClient, { ...request, timestamp })
    case 'switch-signature':
      return signAreaB(c.switch, { ...request, timestamp: `${timestamp.slice(0, 19)}Z` })
    case 'merchant-bearer':
      return { authorization: `Bearer ${c.merchant.token}`, 'x-merchant-id': c.merchant.merchantId }
    case 'admin-bearer':
      return { authorization: `Bearer ${DEV.notifyAdmin.token}` }
    case 'none':
      return {}
  }
}

/** The route's valid sample, signed with the mode's credentials, sent as is. */
async function sendSample(route: Route, mode: Mode, ctx: FuzzContext): Promise<RawReply> {
  const sample = SAMPLES[route.functionId]!(ctx)
  let path = route.path
  for (const [name, value] of Object.entries(sample.params ?? {}))
    path = path.replace(`{${name}}`, encodeURIComponent(value))
  const query = new URLSearchParams(sample.query ?? {}).toString()
  const target = query ? `${path}?${query}` : path
  const body = route.method === 'GET' || sample.body === undefined ? '' : JSON.stringify(sample.body)
  const headers = credentialsFor(route, mode, { method: route.method, target, body })
  return sendRaw(api.url, { method: route.method, target, headers, body, auth: 'valid' })
}

let api: TestApi
let previousGuard: AwsGuard | undefined
const contexts = {} as Record<Mode, FuzzContext>
/** One IRN signed in both modes, with a different note in each. */
const sharedIrnInvoice = buildInvoice()

beforeAll(async () => {
  api = await startApi({ workers: true })
  // Wrap the local IAM guard the server installed: it sees every call before DynamoDB does.
  const GUARD = Symbol.for('einvoicing.localIamGuard')
  previousGuard = (globalThis as { [GUARD]?: AwsGuard })[GUARD]
  installAwsGuard((call) => {
    observe(call)
    previousGuard?.(call)
  })
  const live = devClients(api.url)
  const { app: testApp, switch: testSwitch } = testModeClients(api.url)
  const signedLive = await live.app.post('/api/v1/app/invoice/sign', {
    ...sharedIrnInvoice,
    note: 'live copy',
  })
  const signedTest = await testApp.post('/api/v1/app/invoice/sign', {
    ...sharedIrnInvoice,
    note: 'test copy',
  })
  expect([signedLive.status, signedTest.status]).toEqual([200, 200])
  const transfer = (client: typeof testSwitch, accountNumber: string) => {
    const requestId = `SBX-${randomUUID().slice(0, 8)}`
    return client
      .post('/api/v1/transactions/transfer', {
        requestId,
        stan: '000001',
        processingCode: '400000',
        merchantId: 'MRC0001',
        merchantReference: `ORD-${requestId}`,
        accountNumber,
        amount: 10,
        currency: 'NGN',
        productCode: FUZZ_PRODUCT,
      })
      .then(() => requestId)
  }
  contexts.live = {
    signedIrn: sharedIrnInvoice.irn,
    transferRequestId: await transfer(live.switch, '0123456789'),
    templateId: '1',
  }
  contexts.test = {
    signedIrn: sharedIrnInvoice.irn,
    transferRequestId: await transfer(testSwitch, '1000000000'),
    templateId: '1',
  }
})

afterAll(async () => {
  installAwsGuard(previousGuard)
  await api?.close()
})

describe('live and test mode (CONTRACT section 15)', () => {
  const authenticated = routes.filter((r) => r.auth !== 'none' && SAMPLES[r.functionId])

  it('has a sample for every authenticated route, so none is left out', () => {
    const missing = routes.filter((r) => r.auth !== 'none' && !SAMPLES[r.functionId]).map((r) => r.functionId)
    expect(missing).toEqual([])
  })

  it('sends every route its sample in both modes, and no call of any of it crosses modes', async () => {
    const replies: { route: string; mode: Mode; status: number; environment: unknown }[] = []
    for (const route of authenticated) {
      for (const mode of ['live', 'test'] as const) {
        // Area D administers the operator's own lists: it has no test credentials.
        if (mode === 'test' && route.auth === 'admin-bearer') continue
        const reply = await sendSample(route, mode, contexts[mode])
        replies.push({
          route: `${route.method} ${route.path}`,
          mode,
          status: reply.status,
          environment: reply.headers['x-environment'],
        })
      }
    }
    await api.settled()
    // The webhook fan-out and deliveries the requests set off run on the in-process queue.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await api.settled()

    expect(replies.filter((r) => r.status >= 500)).toEqual([])
    // Every authenticated reply names its mode; Area D's are live.
    expect(replies.filter((r) => r.environment !== r.mode)).toEqual([])

    const crossings = observed.flatMap((o) => {
      const why = crossing(o)
      return why ? [`${why}: ${o.mode} ${o.action} ${o.key}`] : []
    })
    expect(crossings).toEqual([])
    // Not vacuous: test-mode work reached every kind of record the samples touch, under its own keys.
    const reached = new Set(
      observed
        .filter((o) => o.mode === 'test')
        .map((o) => TENANT_PREFIXES.find((p) => o.key.startsWith(`${p}${TEST_MARK}`)))
        .filter(Boolean),
    )
    for (const prefix of [
      'IRN#',
      'INVSEQ#',
      'INVLIST#',
      'BANKREQ#',
      'ACCOUNT#',
      'MHIST#',
      'EVENT#',
      'WEBHOOKS#',
      'BATCH#',
    ])
      expect(reached, `test-mode work reached ${prefix}`).toContain(prefix)
  }, 90_000) // every authenticated route twice: it grew with the receipts routes past the default 30 s on a busy machine

  it('keeps one IRN as two invoices, each mode seeing its own and the other mode seeing none of it', async () => {
    const live = devClients(api.url)
    const { si: testSi, app: testApp } = testModeClients(api.url)
    const path = `/api/v1/si/get-invoice/${sharedIrnInvoice.irn}`
    const [liveCopy, testCopy] = await Promise.all([live.si.get<any>(path), testSi.get<any>(path)])
    expect([liveCopy.status, testCopy.status]).toEqual([200, 200])
    expect(liveCopy.headers.get('x-environment')).toBe('live')
    expect(testCopy.headers.get('x-environment')).toBe('test')
    expect(JSON.stringify(liveCopy.body)).toContain('live copy')
    expect(JSON.stringify(testCopy.body)).toContain('test copy')
    expect(JSON.stringify(testCopy.body)).not.toContain('live copy')

    // Signed in test mode only: live has never heard of it.
    const testOnly = buildInvoice()
    expect((await testApp.post('/api/v1/app/invoice/sign', testOnly)).status).toBe(200)
    expect((await live.si.get(`/api/v1/si/get-invoice/${testOnly.irn}`)).status).toBe(404)
    expect((await testSi.get(`/api/v1/si/get-invoice/${testOnly.irn}`)).status).toBe(200)
  })
})
