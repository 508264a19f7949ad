import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import { Agent, request as httpRequest } from 'node:http'
import fc from 'fast-check'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { declarations } from '#lib/service/endpoints/index.ts'
import { takesIdempotencyKey } from '#lib/service/openapi/common-replies.ts'
import { REFERENCE_LISTS, type Route } from '#lib/service/routes.ts'
import { DEV } from '../../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../fixtures/invoices/build.ts'
import { FUZZ_PRODUCT } from './state.ts'

/**
 * The route-driven fuzz test's requests: for each function of the route table a valid request (its
 * sample), and fast-check arbitraries that turn a sample into a hostile one, field by field, plus
 * hostile queries, headers, path parameters and, now and then, a credential that must be refused.
 */

/** What the samples may refer to: records the fuzz test creates before it starts. */
export interface FuzzContext {
  signedIrn: string
  transferRequestId: string
  templateId: string
}

export interface Sample {
  body?: unknown
  query?: Record<string, string>
  params?: Record<string, string>
}

const unique = () => randomBytes(6).toString('hex').toUpperCase()
const invoice = (): Sample => ({ body: buildInvoice({ irn: newIrn() }) })
const irnBody = (): Sample => ({
  body: {
    invoice_number: `FZ${unique()}`,
    service_id: DEV.supplier.serviceId,
    business_id: DEV.supplier.businessId,
  },
})
const bank = (fields: Record<string, unknown>): Sample => ({
  body: { requestId: `FZ-${unique()}`, stan: '000001', processingCode: '400000', ...fields },
})
const template = {
  productCode: FUZZ_PRODUCT,
  messageType: 0,
  message: 'Paid {{amount}} for {{merchantReference}}',
}
const none = (): Sample => ({})

/**
 * One valid request per function id. A route whose function has no entry here fails the fuzz test:
 * a new route needs its sample (and only that) to be fuzzed like the others.
 */
export const SAMPLES: Record<string, (ctx: FuzzContext) => Sample> = {
  'si-validate': invoice,
  'app-invoice-validate': invoice,
  'app-invoice-sign': invoice,
  'si-generate-qr-code': irnBody,
  'si-generate-irn': irnBody,
  'si-generate-invoice-number': () => ({ body: { code: 'FZ', serial_number: 1 } }),
  'resource-verify-tin': () => ({ body: { tin: DEV.buyer.tin } }),
  'app-invoice-validate-irn': (ctx) => ({
    body: { irn: ctx.signedIrn, business_id: DEV.supplier.businessId, invoice_reference: 'FZ' },
  }),
  // The seed's transmit names the invoice in its body, the authority's in its path (CONTRACT 17).
  'app-invoice-transmit': (ctx) => ({ body: { irn: ctx.signedIrn }, params: { irn: ctx.signedIrn } }),
  'app-invoice-update': (ctx) => ({ params: { irn: ctx.signedIrn }, body: { payment_status: 'PENDING' } }),
  'app-invoice-confirm': (ctx) => ({ params: { irn: ctx.signedIrn } }),
  'si-get-invoice': (ctx) => ({ params: { irn: ctx.signedIrn } }),
  'invoice-pdf': (ctx) => ({ params: { irn: ctx.signedIrn } }),
  // The authority's buyer side: a receipt sends no body (the IRN in the path is the request).
  'invoice-confirm-receipt': (ctx) => ({ params: { irn: ctx.signedIrn } }),
  'invoice-transmit-lookup': (ctx) => ({ params: { irn: ctx.signedIrn } }),
  'invoice-transmit-pull': () => ({
    query: { confirmed: 'false', from: '2026-01-01', to: '2026-12-31', page: '1', size: '5' },
  }),
  'invoice-search': (ctx) => ({
    // The authority's path names the caller's business (GET /api/v1/invoice/{business_id}).
    params: { business_id: DEV.supplier.businessId },
    query: { irn: ctx.signedIrn, payment_status: 'PENDING', currency: 'NGN', page: '1', size: '5' },
  }),
  'invoice-party-create': () => ({
    body: {
      business_id: DEV.supplier.businessId,
      party_name: `Fuzz Party ${unique()}`,
      tin: '3047291850016',
      email: 'fuzz@example.com',
      telephone: '+2348000000000',
      postal_address: {
        street_name: '1 Fuzz Road',
        city_name: 'Lagos',
        postal_zone: '100001',
        country: 'NG',
      },
    },
  }),
  'invoice-party-search': () => ({
    params: { business_id: DEV.supplier.businessId },
    query: { party_name: 'Fuzz Party', tin: '3047291850016', page: '1', size: '5' },
  }),
  'entity-read': () => ({ params: { id: DEV.supplier.businessId }, query: { reference: DEV.supplier.tin } }),
  'transmit-lookup-tin': () => ({ params: { tin: DEV.buyer.tin } }),
  'transmit-lookup-party': () => ({ params: { party_id: randomUUID() } }),
  ...Object.fromEntries(REFERENCE_LISTS.map((list) => [`resource-${list}`, none])),
  'health-check': none,
  'resource-public-keys': none,
  'resource-verify-qr': () => ({ body: { qr: randomBytes(256).toString('base64') } }),
  'transactions-balance-enquiry': () => bank({ processingCode: '310000', accountNumber: '0123456789' }),
  'transactions-name-enquiry': () => ({ body: { requestId: unique(), accountNumber: '0123456789' } }),
  'transactions-transfer': () =>
    bank({
      merchantId: 'MRC0001',
      merchantReference: `ORD-${unique()}`,
      accountNumber: '0123456789',
      amount: 1.5,
      currency: 'NGN',
      productCode: FUZZ_PRODUCT,
      narration: 'Fuzz top-up',
    }),
  'transactions-reversal': (ctx) => bank({ originalRequestId: ctx.transferRequestId }),
  'transactions-status-query': (ctx) => ({ body: { requestId: ctx.transferRequestId } }),
  'merchant-transactions': () => ({ query: { page: '1', size: '5', status: 'ALL' } }),
  'merchant-statement': () => ({ query: { date: new Date().toISOString().slice(0, 10) } }),
  'notification-template-create': () => ({ body: template }),
  'notification-template-list': () => ({ query: { product: FUZZ_PRODUCT } }),
  'notification-template-replace': (ctx) => ({ params: { templateId: ctx.templateId }, body: template }),
  'notification-email-add': () => ({ body: { email: ['fuzz@example.com'] } }),
  'notification-email-remove': () => ({ body: { email: ['fuzz@example.com'] } }),
  'notification-email-list': none,
  openapi: none,
  docs: none,
  // Ids of the right form that name nothing: the fuzz looks for 5xx and half-writes, not for a 404's absence.
  'webhook-subscription-create': () => ({
    body: { url: 'https://93.184.215.14/fuzz-hook', events: ['invoice.signed'] },
  }),
  'webhook-subscription-list': none,
  'webhook-subscription-delete': () => ({ params: { id: `wh_${randomBytes(16).toString('hex')}` } }),
  'webhook-deliveries-list': () => ({
    params: { id: `wh_${randomBytes(16).toString('hex')}` },
    query: { page: '1', size: '5' },
  }),
  'webhook-delivery-redeliver': () => ({
    params: {
      id: `wh_${randomBytes(16).toString('hex')}`,
      eventId: `evt_0000000aa${randomBytes(10).toString('hex')}`,
    },
  }),
  'webhook-subscription-enable': () => ({ params: { id: `wh_${randomBytes(16).toString('hex')}` } }),
  'webhook-recovery-start': () => ({
    params: { id: `wh_${randomBytes(16).toString('hex')}` },
    body: { since: '2026-11-20T18:00:00+01:00', until: '2026-11-21T18:00:00Z' },
  }),
  'webhook-recovery-status': () => ({
    params: { id: `wh_${randomBytes(16).toString('hex')}`, task: `rcv_${randomBytes(16).toString('hex')}` },
  }),
  'event-list': () => ({
    query: {
      type: 'invoice.signed',
      since: '2026-11-20T18:00:00Z',
      until: '2099-01-01T00:00:00Z',
      size: '5',
    },
  }),
  'event-get': () => ({ params: { id: `evt_0000000aa${randomBytes(10).toString('hex')}` } }),
  'app-invoice-batch-submit': () => ({
    body: { action: 'validate', invoices: [buildInvoice({ irn: newIrn() })] },
  }),
  'app-invoice-batch-status': () => ({ params: { batch_id: randomUUID() } }),
  // Test-mode keys of the supplier; the keys rolled and revoked name nothing (never the caller's own).
  'api-key-issue': () => ({ body: { role: 'SI', mode: 'test' } }),
  'api-key-list': none,
  'api-key-roll': () => ({ params: { key: `ak_${unique()}` }, body: { overlap_seconds: 60 } }),
  'api-key-revoke': () => ({ params: { key: `ak_${unique()}` } }),
  // The sandbox's clocks (docs/sandbox.md): the fuzz's live credentials get 403 and move nothing.
  'test-clock-advance': () => ({ body: { seconds: 60 } }),
  'test-clock': none,
  'test-bank-clock-advance': () => ({ body: { seconds: 60 } }),
  // B2C devices and receipts (CONTRACT 23): a receipt of a device no business has is REJECTED, stored nowhere.
  'device-register': () => ({
    body: {
      name: 'Fuzz till',
      public_key: generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }),
    },
  }),
  'device-list': () => ({ query: { size: '5' } }),
  'device-get': () => ({ params: { id: `dev_${randomBytes(16).toString('hex')}` } }),
  'device-revoke': () => ({ params: { id: `dev_${randomBytes(16).toString('hex')}` } }),
  'device-chain': () => ({ params: { id: `dev_${randomBytes(16).toString('hex')}` } }),
  'receipts-report': () => ({
    body: {
      receipts: [
        {
          ...buildInvoice({ minimal: true }),
          invoice_kind: 'B2C',
          device: {
            device_id: `dev_${randomBytes(16).toString('hex')}`,
            counter: 1,
            prev_hash: randomBytes(32).toString('base64url'),
            issued_at: new Date().toISOString(),
          },
          signature: randomBytes(64).toString('base64url'),
        },
      ],
    },
  }),
  // The receipt's public verification page (a QR of no device: "not genuine", no write) and the
  // compliance report (ADMIN: the fuzz's SI key is refused, and reads nothing).
  'receipt-verify-page': () => ({
    params: { device_id: `dev_${randomBytes(16).toString('hex')}`, counter: '1' },
    query: {
      h: randomBytes(32).toString('base64url'),
      s: randomBytes(64).toString('base64url'),
      i: newIrn(),
    },
  }),
  'compliance-report': () => ({ query: { from: '2026-11-01', to: '2026-11-02', format: 'json' } }),
}

// Hostile values ----------------------------------------------------------------------------------

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c))

/**
 * JSON text put on the wire as is: nesting deeper than JSON.stringify's recursion allows, and
 * numbers JavaScript cannot hold.
 */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with each Raw value spliced in as its text. */
export function toJson(value: unknown): string {
  const raws: string[] = []
  const text =
    JSON.stringify(value, (_key, v: unknown) =>
      v instanceof Raw ? `\u0000RAW${raws.push(v.text) - 1}\u0000` : v,
    ) ?? 'null'
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_, i: string) => raws[Number(i)]!)
}

const deep = (depth: number, asObject: boolean) =>
  new Raw(
    asObject ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`,
  )

/** A JSON object that has an own key the JavaScript prototype machinery cares about. */
const prototypeObject = fc
  .constantFrom('__proto__', 'constructor', 'prototype')
  .map((key) => JSON.parse(`{"${key}":{"polluted":true,"toString":1}}`) as unknown)

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', [], {}, '0', 'null', 'true'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    '\udbff\udbff',
    '\u0000',
    '\u202e\u202d',
    '\ufeff',
    '𝕏🇳🇬',
    'e\u0301',
    '%00',
    "'; DROP",
  ),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.tuple(fc.integer({ min: 100, max: 5_000 }), fc.boolean()).map(([n, obj]) => deep(n, obj)),
  fc.constantFrom(
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 64,
    -0,
    0.1 + 0.2,
  ),
  fc.double(),
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => Array.from({ length: n }, () => 1)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  prototypeObject,
)

const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    'pk',
    'sk',
    '$where',
  ),
  fc.string({ unit: codeUnit, maxLength: 12 }),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'k'.repeat(n)),
)

/** Numbers JSON can write and JavaScript cannot hold: the text goes on the wire as is. */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1E-400',
  '123456789012345678901234567890',
  '-0',
  '0.30000000000000004',
  '1e21',
]

/** Every path in a JSON value: `[]` is the root, `['invoice_line', 0, 'item']` a node inside. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix]
  if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value))
      paths.push(...pathsOf(v, [...prefix, Array.isArray(value) ? Number(k) : k]))
  return paths
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = structuredClone(root) as Record<string | number, unknown>
  let node = copy
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>
  node[path.at(-1)!] = value
  return copy
}

/** The body as the bytes that are sent: a hostile change to one field, a key, or the whole text. */
function bodyText(sample: unknown): fc.Arbitrary<string> {
  if (sample === undefined)
    return fc.oneof({ weight: 5, arbitrary: fc.constant('') }, fc.constantFrom('{}', 'x'))
  const paths = pathsOf(sample)
  const objects = paths.filter((p) => {
    const v = p.reduce<unknown>((n, s) => (n as Record<string | number, unknown>)[s], sample)
    return v !== null && typeof v === 'object' && !Array.isArray(v)
  })
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(JSON.stringify(sample)) },
    // One field replaced by a hostile value.
    {
      weight: 8,
      arbitrary: fc
        .tuple(fc.constantFrom(...paths), hostileValue)
        .map(([path, value]) => toJson(setAt(sample, path, value))),
    },
    // A hostile key added to one object.
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...objects), hostileKey, hostileValue).map(([path, key, value]) => {
        const target = path.reduce<unknown>((n, s) => (n as Record<string | number, unknown>)[s], sample)
        return toJson(setAt(sample, path, { ...(target as object), [key]: value }))
      }),
    },
    // A key sent twice (the last one wins in JSON.parse): the first copy holds a hostile value.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...objects.filter((p) => p.length === 0)), hostileValue)
        .map(([, value]) => {
          const text = JSON.stringify(sample)
          const firstKey = Object.keys(sample as object)[0] ?? 'x'
          return `{${JSON.stringify(firstKey)}:${toJson(value)},${text.slice(1)}`
        }),
    },
    // A number beyond what JavaScript holds, written as JSON text.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...paths.filter((p) => p.length > 0)), fc.constantFrom(...RAW_NUMBERS))
        .map(([path, raw]) => toJson(setAt(sample, path, new Raw(raw)))),
    },
    // Not the object at all.
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('', 'null', '[]', '"x"', '{', '{"a":', 'true', '1e999', '\u0000', '{"a":1}{"b":2}'),
        fc.integer({ min: 1_000, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
        fc.string({ unit: codeUnit, maxLength: 60 }),
      ),
    },
  )
}

/** A query string as sent: the sample's parameters, some hostile, some repeated, some malformed. */
function queryText(sample: Record<string, string> | undefined): fc.Arbitrary<string> {
  const keys = Object.keys(sample ?? {})
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s)
    } catch {
      return '%ED%A0%80' // a lone surrogate, as its UTF-8-like bytes
    }
  }
  const value = fc.oneof(
    fc.string({ maxLength: 20 }).map(encode),
    fc.string({ unit: codeUnit, maxLength: 20 }).map(encode),
    fc.constantFrom(
      '%',
      '%E0%A4%A',
      '%C0%AF',
      '%00',
      '%ED%A0%80',
      '+',
      '-1',
      '0',
      '99999999999',
      '1e3',
      'ALL',
    ),
    fc.integer({ min: 1_000, max: 6_000 }).map((n) => 'q'.repeat(n)),
  )
  const key = fc.oneof(
    fc.constantFrom(...(keys.length ? keys : ['x'])),
    fc.string({ maxLength: 10 }).map(encode),
  )
  const base = Object.entries(sample ?? {}).map(([k, v]) => `${encode(k)}=${encode(v)}`)
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(base.join('&')) },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(key, value), { minLength: 1, maxLength: 4 })
        .map((pairs) => [...base, ...pairs.map(([k, v]) => `${k}=${v}`)].join('&')),
    },
    { weight: 1, arbitrary: fc.constantFrom('&&&', '=', 'a', '%', 'a=1=2', '&a=&=b') },
  )
}

/** Path parameters as sent (already percent-encoded). */
function paramText(sample: string | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(encodeURIComponent(sample ?? 'x')) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%',
        '%E0%A4%A',
        '%C0%AF',
        '%ED%A0%80',
        '%2F',
        '..',
        '%2e%2e',
        '0',
        '-1',
        '1e3',
        'null',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 4_000 }).map((n) => 'p'.repeat(n)) },
  )
}

const headerValue = fc.string({ unit: printable, maxLength: 60 })

/** Headers a client may send besides its credentials, each hostile in its own way. */
const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'content-type': fc.constantFrom(
        'text/plain',
        'application/json; charset=utf-16',
        'application/JSON',
        'application/json, text/plain',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/vnd.api+json',
        '',
      ),
      'idempotency-key': fc.oneof(headerValue, fc.constant('k'.repeat(200)), fc.constant(`fz-${unique()}`)),
      'x-validation-mode': fc.constantFrom('lenient', 'strict', 'LENIENT', '', 'both'),
      accept: fc.oneof(headerValue, fc.constantFrom('text/csv', 'application/xml', '*/*;q=0')),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"abc"', ''),
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
      'x-request-id': headerValue,
    },
    { requiredKeys: [] },
  )
  .map(
    (h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
  )

/** A credential that must be refused, or `valid` (most requests). */
export type AuthCase = 'valid' | 'stale' | 'bad-signature' | 'unknown-key' | 'replay' | 'wrong-role'
const authCase = fc.oneof(
  { weight: 12, arbitrary: fc.constant<AuthCase>('valid') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<AuthCase>('stale', 'bad-signature', 'unknown-key', 'replay', 'wrong-role'),
  },
)

export interface FuzzRequest {
  method: string
  target: string
  headers: Record<string, string>
  body: string
  auth: AuthCase
}

/** A hostile, correctly authenticated (unless `auth` says otherwise) request for a route. */
export function requestFor(
  route: Route,
  sample: Sample,
): fc.Arbitrary<Omit<FuzzRequest, 'headers'> & { extra: Record<string, string> }> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const params = fc.tuple(...names.map((n) => paramText(sample.params?.[n])))
  const hasBody = route.method !== 'GET'
  return fc
    .record({
      params: names.length ? params : fc.constant([] as string[]),
      query:
        route.method === 'GET' || sample.query
          ? queryText(sample.query)
          : fc.oneof({ weight: 4, arbitrary: fc.constant('') }, queryText(undefined)),
      body: hasBody
        ? bodyText(sample.body)
        : fc.oneof({ weight: 9, arbitrary: fc.constant('') }, fc.constant('{}')),
      extra: fc.oneof({ weight: 2, arbitrary: fc.constant({}) }, hostileHeaders),
      auth: route.auth === 'none' ? fc.constant<AuthCase>('valid') : authCase,
    })
    .map(({ params: values, query, body, extra, auth }) => {
      let path = route.path
      names.forEach((name, i) => {
        // A credential case keeps the sample's parameters, so that authentication is what decides.
        const value = auth === 'valid' ? values[i]! : encodeURIComponent(sample.params?.[name] ?? 'x')
        path = path.replace(`{${name}}`, value)
      })
      return { method: route.method, target: query ? `${path}?${query}` : path, body, extra, auth }
    })
}

// Over-long values -------------------------------------------------------------------------------

/** Longer than DynamoDB's 2,048-byte partition key, as ASCII and as two-byte UTF-8 characters. */
const OVER_LONG = ['x'.repeat(3000), encodeURIComponent('é'.repeat(1100))]
const OVER_LONG_HEADER = 'x'.repeat(3000)

/** The credential headers of each scheme: an over-long one must be refused by the scheme. */
export const CREDENTIAL_HEADERS: Record<Route['auth'], string[]> = {
  'api-signature': ['x-api-key', 'x-api-signature', 'x-api-timestamp'],
  'switch-signature': ['authorization', 'x-signature', 'x-timestamp', 'x-nonce'],
  'merchant-bearer': ['authorization', 'x-merchant-id'],
  'admin-bearer': ['authorization'],
  none: [],
}

/**
 * Headers routes read besides their credentials, and tracing. They are sent over-long all at once, at
 * just over 2,048 bytes each (one at a time would double the test's time; together they stay under
 * the 16 KB Node and API Gateway allow for a request's headers).
 */
const OTHER_HEADERS = [
  'x-validation-mode',
  'accept',
  'if-none-match',
  'x-request-id',
  'traceparent',
  'x-amzn-trace-id',
]
const OVER_KEY_LIMIT = 'x'.repeat(2100)

export interface OverLongVariant {
  target: string
  body: string
  /** Headers that replace the credential's or add to it. */
  headers: Record<string, string>
  /** An over-long credential header: the scheme must refuse it (401 or 403). */
  credential: boolean
}

/**
 * The route's sample, correctly signed, with one header, query or path parameter at a time replaced by
 * an over-long value. A credential header's value replaces the signed one after signing.
 */
export function overLongVariants(route: Route, sample: Sample): OverLongVariant[] {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const pathWith = (override: Record<string, string>) =>
    names.reduce(
      (path, name) =>
        path.replace(`{${name}}`, override[name] ?? encodeURIComponent(sample.params?.[name] ?? 'x')),
      route.path,
    )
  const queryWith = (override: Record<string, string>) => {
    const entries = Object.entries({ ...sample.query, ...override })
    return entries.length
      ? `?${entries.map(([k, v]) => `${k}=${override[k] !== undefined ? v : encodeURIComponent(v)}`).join('&')}`
      : ''
  }
  const body = sample.body === undefined ? '' : JSON.stringify(sample.body)
  const plain = `${pathWith({})}${queryWith({})}`
  const variants: OverLongVariant[] = []
  for (const name of names)
    for (const value of OVER_LONG)
      variants.push({
        target: `${pathWith({ [name]: value })}${queryWith({})}`,
        body,
        headers: {},
        credential: false,
      })
  // Every query parameter the declaration validates, and any the sample sends.
  const declared = declarations.find((d) => d.functionId === route.functionId)?.request.query as
    | { shape?: Record<string, unknown> }
    | undefined
  const queryNames = [...new Set([...Object.keys(declared?.shape ?? {}), ...Object.keys(sample.query ?? {})])]
  for (const name of queryNames)
    for (const value of OVER_LONG)
      variants.push({
        target: `${pathWith({})}${queryWith({ [name]: value })}`,
        body,
        headers: {},
        credential: false,
      })
  for (const name of CREDENTIAL_HEADERS[route.auth])
    variants.push({ target: plain, body, headers: { [name]: OVER_LONG_HEADER }, credential: true })
  if (takesIdempotencyKey(route))
    variants.push({
      target: plain,
      body,
      headers: { 'idempotency-key': OVER_LONG_HEADER },
      credential: false,
    })
  variants.push({
    target: plain,
    body,
    headers: Object.fromEntries(OTHER_HEADERS.map((name) => [name, OVER_KEY_LIMIT])),
    credential: false,
  })
  return variants
}

// Oversized fields and replies (CONTRACT 18) -----------------------------------------------------

/**
 * Just over the text bound (lib/platform/text/length-bound.ts), for every field; and over DynamoDB's
 * 400 KB item alone (the 420 KB buyer name of issue 32), for one field of each route.
 */
export const OVERSIZED_TEXT = ['x'.repeat(4097), 'x'.repeat(420 * 1024)] as const

/** The sample's target: its path parameters and query, as sent. */
export function sampleTarget(route: Route, sample: Sample): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(sample.params?.[name] ?? 'x'),
  )
  const query = new URLSearchParams(sample.query ?? {}).toString()
  return query ? `${path}?${query}` : path
}

/** Every string leaf of a body, as its path segments: the fields a write route stores. */
export function stringLeaves(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, String(i)]))
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]))
  return []
}

/** The body with the string at `path` replaced by `text`. */
export function withText(body: unknown, path: string[], text: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>
  let parent: Record<string, unknown> = copy
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string, unknown>
  parent[path.at(-1)!] = text
  return copy
}

/**
 * A body that asks for an unbounded reply: every array of the sample 20,000 empty entries long and
 * 20,000 unknown keys beside its fields (the 20,000-line invoice of issue 32, and its warnings).
 */
export function oversizedReplyBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body))
    out[key] = Array.isArray(value) ? Array.from({ length: 20_000 }, () => ({})) : value
  for (let i = 0; i < 20_000; i++) out[`unknown_${i}`] = i
  return out
}

/** The problems an error reply lists, whatever its area's record. */
export const listedErrors = (body: any): { path: string; code: string }[] =>
  body?.errors ?? body?.error?.errors ?? []

// Signing and sending --------------------------------------------------------------------------

let lastMs = 0
/** Strictly increasing timestamps: two identical requests never share a signature (the replay guard). */
function timestamp(offsetMs = 0): string {
  lastMs = Math.max(Date.now(), lastMs + 1)
  return new Date(lastMs + offsetMs).toISOString()
}

const STALE_MS = -400_000

/** The credential headers of a request, for its route and auth case. */
export function credentials(route: Route, request: Omit<FuzzRequest, 'headers'>): Record<string, string> {
  const signed = { method: request.method, target: request.target, body: request.body }
  const stale = request.auth === 'stale'
  switch (route.auth) {
    case 'none':
      return {}
    case 'api-signature': {
      let client: { apiKey: string; secret: string } = DEV.clients.admin
      if (request.auth === 'wrong-role')
        client = route.roles.includes('SI') && !route.roles.includes('APP') ? DEV.clients.app : DEV.clients.si
      if (request.auth === 'bad-signature') client = { ...client, secret: 'not-the-secret' }
      const headers = signAreaA(client, { ...signed, timestamp: timestamp(stale ? STALE_MS : 0) })
      if (request.auth === 'unknown-key') headers['x-api-key'] = 'fuzz-unknown-key'
      return headers
    }
    case 'switch-signature': {
      const secret = request.auth === 'bad-signature' ? 'not-the-secret' : DEV.switch.secret
      const headers = signAreaB(
        { token: DEV.switch.token, secret },
        { ...signed, timestamp: `${timestamp(stale ? STALE_MS : 0).slice(0, 19)}Z` },
      )
      if (request.auth === 'unknown-key') headers.authorization = 'Bearer fuzz-unknown-token'
      return headers
    }
    case 'merchant-bearer':
      return {
        authorization: `Bearer ${request.auth === 'unknown-key' ? 'fuzz-unknown-token' : DEV.merchants[0].token}`,
        'x-merchant-id': request.auth === 'wrong-role' ? 'MRC0002' : 'MRC0001',
      }
    case 'admin-bearer':
      return {
        authorization: `Bearer ${request.auth === 'unknown-key' ? 'fuzz-unknown-token' : DEV.notifyAdmin.token}`,
      }
  }
}

/** Whether this auth case must be refused on this route (some cases do not apply to every scheme). */
export function mustBeRefused(route: Route, auth: AuthCase): boolean {
  if (auth === 'valid' || route.auth === 'none') return false
  if (route.auth === 'merchant-bearer' || route.auth === 'admin-bearer')
    return auth === 'unknown-key' || (auth === 'wrong-role' && route.auth === 'merchant-bearer')
  if (auth === 'wrong-role') return route.auth === 'api-signature' && route.roles.length < 3
  return true
}

export interface RawReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** Sends the request exactly as built: method, target and body bytes unchanged (the signature covers them). */
export function sendRaw(baseUrl: string, request: FuzzRequest): Promise<RawReply> {
  const url = new URL(baseUrl)
  const body = Buffer.from(request.body, 'utf8')
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.target,
        agent,
        headers: {
          ...(request.body ? { 'content-type': 'application/json' } : {}),
          ...request.headers,
          'content-length': String(body.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
