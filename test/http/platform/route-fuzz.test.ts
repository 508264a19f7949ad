import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSAL_REASONS } from '#lib/platform/auth/refusal.ts'
import { pathMatches } from '#lib/platform/http/unrouted.ts'
import { type ReplyKind, type Route, routes } from '#lib/service/routes.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import {
  credentials,
  type FuzzContext,
  type FuzzRequest,
  listedErrors,
  mustBeRefused,
  OVERSIZED_TEXT,
  overLongVariants,
  oversizedReplyBody,
  type RawReply,
  requestFor,
  SAMPLES,
  sampleTarget,
  sendRaw,
  stringLeaves,
  withText,
} from '../../fuzz/requests.ts'
import { FUZZ_PRODUCT, snapshot } from '../../fuzz/state.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { checkErrorCodes, operationFor } from '../../support/contract.ts'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'
import { DEV, devClients } from '../../support/clients.ts'

/**
 * The route-driven fuzz test (issue 12): every route of the route table gets correctly authenticated
 * requests with hostile bodies, queries, headers and path parameters, and now and then a credential
 * that must be refused. For every reply: never a 5xx, always the area's record, and a refused request
 * changes nothing (a snapshot of balances, invoice states, counters and lists before and after). The
 * server's log is captured for the whole run: no secret, token or signature in it, and every refusal
 * line names its reason code.
 *
 * Each route runs with a fixed seed and with one random seed per test run, both printed; rerun a
 * failure with FUZZ_SEED=<seed>. FUZZ_RUNS sets the requests per route and seed.
 */
const FIXED_SEED = 20261123
const RANDOM_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const RUNS = Number(process.env.FUZZ_RUNS ?? 3)

process.env.LOG_LEVEL = 'INFO'
let output: CapturedOutput
/** Every signature header value sent: none may appear in the log. */
const signaturesSent = new Set<string>()

let api: TestApi
let ctx: FuzzContext
let state: string
const tally = { requests: 0, refusedByAuth: 0, refused: 0, byStatus: new Map<number, number>() }

beforeAll(async () => {
  api = await startApi()
  const clients = devClients(api.url)
  // The records the samples refer to: a signed invoice, a transfer, a template.
  const invoice = buildInvoice()
  const signed = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
  const transferRequestId = `FZ-ORIGINAL-${Date.now()}`
  const transfer = await clients.switch.post<any>('/api/v1/transactions/transfer', {
    requestId: transferRequestId,
    stan: '000001',
    processingCode: '400000',
    merchantId: 'MRC0001',
    merchantReference: `ORD-${Date.now()}`,
    accountNumber: '0123456789',
    amount: 10,
    currency: 'NGN',
    productCode: FUZZ_PRODUCT,
  })
  const created = await clients.notify.post<any>('/notification/template', {
    productCode: FUZZ_PRODUCT,
    messageType: 1,
    message: 'Failed {{amount}}',
  })
  expect([signed.status, transfer.status, created.status]).toEqual([200, 200, 201])
  ctx = { signedIrn: invoice.irn, transferRequestId, templateId: String(created.body.data.templateID) }
  state = await snapshot()

  output = captureOutput()
  console.info(
    `route fuzz: fixed seed ${FIXED_SEED}, random seed ${RANDOM_SEED} (rerun with FUZZ_SEED=${RANDOM_SEED})`,
  )
})

afterAll(async () => {
  output?.restore()
  await api?.close()
  console.info(
    `route fuzz: ${tally.requests} requests, ${tally.refused} refused (${tally.refusedByAuth} by auth); statuses ${JSON.stringify(Object.fromEntries([...tally.byStatus].sort()))}`,
  )
})

// Assertions, each on its own so that more (e.g. the published document) can be added beside them.

/** The area's record, success or error, for the route's reply kind (CONTRACT sections 3, 6, 7). */
function expectAreaRecord(
  kind: ReplyKind,
  reply: RawReply,
  shape: { authority: boolean; withCode: boolean },
) {
  const failed = reply.status >= 400
  // 304 (a list's ETag matched) and HEAD carry no body; everything else is JSON.
  if (reply.status === 304) return expect(reply.text).toBe('')
  expect(reply.headers['content-type']).toMatch(/^application\/json/)
  const body = JSON.parse(reply.text)
  // A request line and headers over 16 KB never reach a route: Node's parser refuses them, and the
  // local server answers its short {message} (CONTRACT section 9), as API Gateway answers its own.
  if (reply.status === 431) return expect(body).toEqual({ message: expect.any(String) })
  const firsError = {
    timestamp: expect.any(String),
    message: expect.any(String),
    details: expect.any(String),
    status: expect.stringMatching(new RegExp(`^${reply.status} [A-Z_]+$`)),
    errors: expect.any(Array),
    // An invoice refused with 400 also lists the unknown keys it ignored (CONTRACT 17).
    ...(failed && 'warnings' in (body.error ?? body) ? { warnings: expect.any(Array) } : {}),
    // A list cut at 100 counts what it left out (CONTRACT 18).
    ...(failed && 'truncated' in (body.error ?? body) ? { truncated: expect.any(Object) } : {}),
    // A 403 names the roles that may call the route (CONTRACT 20).
    ...(failed && 'required_roles' in (body.error ?? body) ? { required_roles: expect.any(Array) } : {}),
    // An invoice refused by a validate endpoint lists its EN 16931 findings (CONTRACT 22).
    ...(failed && 'en16931' in (body.error ?? body) ? { en16931: expect.any(Array) } : {}),
  }
  // Every error reply carries a code of the error catalogue (CONTRACT 20).
  if (failed) checkErrorCodes(`${reply.status}`, { status: reply.status, body })
  // Area A's records carry `code`, the status (CONTRACT 17); the authority's paths fail in its record.
  const code = shape.withCode ? { code: reply.status } : {}
  if (shape.authority && failed) {
    return expect(body).toEqual({
      code: reply.status,
      message: expect.any(String),
      data: null,
      error: {
        id: expect.any(String),
        handler: expect.any(String),
        details: expect.any(String),
        public_message: expect.any(String),
      },
      errors: expect.any(Array),
      ...('warnings' in body ? { warnings: expect.any(Array) } : {}),
      ...('truncated' in body ? { truncated: expect.any(Object) } : {}),
      ...('required_roles' in body ? { required_roles: expect.any(Array) } : {}),
      ...('en16931' in body ? { en16931: expect.any(Array) } : {}),
    })
  }
  switch (kind) {
    case 'record':
      if (failed) expect(body).toEqual({ ...code, ...firsError })
      else expect(body).toEqual(expect.objectContaining(code))
      return
    case 'envelope':
      expect(body).toEqual({
        ...code,
        status: failed ? 'FAILED' : 'SUCCESS',
        message: expect.any(String),
        data: failed ? null : expect.anything(),
        execTime: expect.stringMatching(/^\d+ms$/),
        error: failed ? firsError : null,
      })
      return
    case 'bank':
    case 'merchant':
      expect(body).toMatchObject({
        responseCode: expect.stringMatching(/^\d\d$/),
        responseMessage: expect.any(String),
        responseStatus: failed ? 'FAILED' : expect.stringMatching(/^(SUCCESS|FAILED)$/),
        traceId: expect.any(String),
        timestamp: expect.any(String),
      })
      return
    case 'notification':
      expect(body).toMatchObject({ status: reply.status, message: expect.any(String) })
      return
  }
}

/** The refusal log lines written while one request was handled. */
function refusalLines(from: number): Record<string, unknown>[] {
  return output.written
    .slice(from)
    .join('')
    .split('\n')
    .filter((line) => line.includes('"request refused"'))
    .map((line) => JSON.parse(line))
}

/**
 * Sends one request and checks everything the fuzz test promises about its reply. `compareState`
 * false leaves the before-and-after comparison to the caller (the over-long values compare once per
 * route: a snapshot per request would make them the slowest part of the run).
 */
async function exchange(route: Route, request: FuzzRequest, expectRefusal: boolean, compareState = true) {
  const from = output.written.length
  const reply = await sendRaw(api.url, request)
  tally.requests++
  tally.byStatus.set(reply.status, (tally.byStatus.get(reply.status) ?? 0) + 1)
  const context = `${request.method} ${request.target.slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 300)}`

  expect(reply.status, context).toBeLessThan(500)
  // A path that no longer matches once normalised (`..`) is answered by the catch-all route, in the
  // area's bare error record (Area A: FirsErrorDetails, not the envelope).
  const routed = pathMatches(route.path, new URL(request.target, api.url).pathname)
  const kind = routed || route.reply !== 'envelope' ? route.reply : 'record'
  // The docs page's success is its HTML (test/http/platform/docs-page.test.ts checks what it renders).
  if (routed && route.functionId === 'docs' && reply.status === 200) {
    expect(reply.headers['content-type'], context).toMatch(/^text\/html/)
    return reply
  }
  // A success in another media type the published document gives for it (the merchant history as
  // CSV when the request's Accept asks for text/csv, CONTRACT section 12) is that route's reply too.
  const media = String(reply.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
  // The receipt's verification page answers a phone's browser: every reply, a refusal too, is a
  // page in the media type its declaration publishes (test/http/receipts/verify-page.test.ts reads them).
  const page = routed && route.functionId === 'receipt-verify-page'
  if (routed && (reply.status < 400 || page) && media && media !== 'application/json') {
    const declared = operationFor(request.method, request.target)?.operation.responses?.[reply.status]
      ?.content
    expect(Object.keys(declared ?? {}), context).toContain(media)
  } else {
    try {
      expectAreaRecord(kind, reply, {
        authority: routed && route.profile === 'authority',
        withCode: (kind === 'record' || kind === 'envelope') && (!routed || route.auth !== 'none'),
      })
    } catch (error) {
      throw new Error(`${context}\nis not the area's record: ${(error as Error).message}`)
    }
  }

  // A request refused by its credentials says why in the log, and only those do.
  const refusals = refusalLines(from)
  if (reply.status === 401 || reply.status === 403) {
    tally.refusedByAuth++
    expect(refusals, context).toHaveLength(1)
    expect(REFUSAL_REASONS, context).toContain(refusals[0]!.reason)
  } else {
    expect(refusals, context).toEqual([])
  }
  if (expectRefusal) expect([401, 403], context).toContain(reply.status)

  if (!compareState) return reply
  // A refused request changed nothing; a successful one becomes the state to compare against.
  const after = await snapshot()
  if (reply.status >= 400) {
    tally.refused++
    expect(after === state, `${context}\nchanged the stored state`).toBe(true)
  }
  state = after
  return reply
}

describe('the route fuzz test', () => {
  it('has a sample for every route in the route table', () => {
    const missing = routes
      .filter((r) => !SAMPLES[r.functionId])
      .map((r) => `${r.method} ${r.path} (${r.functionId})`)
    expect(missing).toEqual([])
  })

  const all = routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const)
  it.each(all)(
    '%s: never a 5xx, always the area record, refusals change nothing',
    async (_, route, index) => {
      const sampleOf = SAMPLES[route.functionId]
      if (!sampleOf) throw new Error(`No sample for ${route.functionId}: add one to test/fuzz/requests.ts`)
      for (const seed of [FIXED_SEED + index, RANDOM_SEED + index]) {
        await fc.assert(
          fc.asyncProperty(
            fc.constant(null).chain(() => requestFor(route, sampleOf(ctx))),
            async ({ extra, ...request }) => {
              const headers = { ...credentials(route, request), ...extra }
              for (const name of ['x-api-signature', 'x-signature'])
                if (headers[name]) signaturesSent.add(headers[name])
              const full = { ...request, headers }
              if (request.auth === 'replay') {
                // The same signed bytes twice: the first is judged on its own, the second is a replay.
                await exchange(route, full, false)
                await exchange(route, full, mustBeRefused(route, 'replay'))
              } else {
                await exchange(route, full, mustBeRefused(route, request.auth))
              }
            },
          ),
          { seed, numRuns: RUNS, endOnFailure: true },
        )
      }
    },
    120_000,
  )

  // Over-long values (issue 22): every header, query and path parameter a route reads, one at a time,
  // longer than DynamoDB's 2,048-byte partition key, in ASCII and in two-byte UTF-8 (fewer characters
  // than bytes). Each is refused by its declared bound (400, or the scheme's 401/403), never a 5xx,
  // however deep in the request it would otherwise have gone. One version of each route: both share
  // their function.
  const firstVersion = routes.filter(
    (route, i) =>
      routes.findIndex(
        (other) =>
          other.functionId === route.functionId &&
          other.method === route.method &&
          other.path.replace(/^\/api\/v\d/, '') === route.path.replace(/^\/api\/v\d/, ''),
      ) === i,
  )
  it.each(firstVersion.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: over-long headers, query and path parameters are refused, never a 5xx',
    async (_, route) => {
      const sample = SAMPLES[route.functionId]!(ctx)
      const before = await snapshot()
      let allRefused = true
      for (const variant of overLongVariants(route, sample)) {
        const base = {
          method: route.method,
          target: variant.target,
          body: variant.body,
          auth: 'valid' as const,
        }
        const headers = { ...credentials(route, base), ...variant.headers }
        const expectRefusal = variant.credential
        const reply = await exchange(route, { ...base, headers }, expectRefusal, false)
        if (reply.status < 400) allRefused = false
      }
      if (allRefused)
        expect((await snapshot()) === before, 'a refused request changed the stored state').toBe(true)
      state = await snapshot()
    },
    120_000,
  )

  // Oversized fields and replies (CONTRACT 18): every string field of every write route's sample, one
  // at a time, just over the 4,096-character bound (one of them 420 KB, over DynamoDB's item alone),
  // is a 400 naming that field; and a body asking for an unbounded reply (20,000 entries in each
  // array, 20,000 unknown keys) gets one under 1 MiB listing at most 100 problems of each kind.
  const writeRoutes = firstVersion.filter((route) => route.writes && route.method !== 'GET')
  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: oversized fields are 400 naming the field, oversized replies are bounded, never a 5xx',
    async (_, route) => {
      const sample = SAMPLES[route.functionId]!(ctx)
      const target = sampleTarget(route, sample)
      const send = (body: unknown) => {
        const text = body === undefined ? '' : JSON.stringify(body)
        const base = { method: route.method, target, body: text, auth: 'valid' as const }
        return exchange(route, { ...base, headers: credentials(route, base) }, false, false)
      }
      const before = await snapshot()
      // A route whose path carries its body (the authority's transmit) stores nothing of a body.
      const fields = route.bodyFromPath ? [] : stringLeaves(sample.body)
      for (const [i, path] of fields.entries()) {
        const reply = await send(withText(sample.body, path, OVERSIZED_TEXT[i === 0 ? 1 : 0]))
        const context = `${route.method} ${route.path} with ${path.join('/')} oversized -> ${reply.status} ${reply.text.slice(0, 300)}`
        expect(reply.status, context).toBe(400)
        expect(listedErrors(JSON.parse(reply.text)), context).toContainEqual(
          expect.objectContaining({ path: path.join('/'), code: 'NG-SC-04' }),
        )
      }
      const reply = await send(oversizedReplyBody(sample.body))
      expect(reply.text.length).toBeLessThan(1024 * 1024)
      const body = reply.text ? JSON.parse(reply.text) : {}
      expect(listedErrors(body).length).toBeLessThanOrEqual(100)
      expect((body.warnings ?? body.error?.warnings ?? []).length).toBeLessThanOrEqual(100)
      if (reply.status >= 400)
        expect((await snapshot()) === before, 'a refused request changed the stored state').toBe(true)
      state = await snapshot()
    },
    120_000,
  )

  it('left a log with no secret, token or signature, and a reason on every refusal', () => {
    const log = output.written.join('')
    const secrets = [
      ...Object.values(DEV.clients).flatMap((c) => [c.apiKey, c.secret]),
      DEV.switch.token,
      DEV.switch.secret,
      ...DEV.merchants.map((m) => m.token),
      DEV.notifyAdmin.token,
      'not-the-secret',
    ]
    for (const value of [...secrets, ...signaturesSent]) expect(log.includes(value), value).toBe(false)
    const refusals = log.split('\n').filter((l) => l.includes('"request refused"'))
    expect(refusals.length).toBe(tally.refusedByAuth)
    for (const line of refusals) expect(REFUSAL_REASONS).toContain(JSON.parse(line).reason)
    expect(tally.refusedByAuth).toBeGreaterThan(0)
  })
})
