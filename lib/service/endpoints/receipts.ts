import * as z from 'zod'
import {
  DEVICE_BY_ID_PREFIX,
  DEVICE_PREFIX,
  keys,
  PARTY_PREFIX,
  POSTAL_ADDRESS_PREFIX,
  RECEIPT_PREFIX,
  SEARCH_COUNTER_PREFIX,
  SEARCH_LIST_PREFIX,
  TEST_CLOCK_PREFIX,
} from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import {
  DevicePath,
  DevicesQuery,
  MAX_RECEIPTS,
  RegisterDeviceRequest,
  ReportReceiptsRequest,
} from '#lib/receipts/schemas.ts'
import { ANY, BUSINESS_ADMIN, reads, Warning, writes } from './common.ts'

/**
 * B2C devices and their receipts (CONTRACT 23; items in lib/receipts/records.ts). The devices are a
 * business's ADMIN endpoints, beside the keys and webhooks; reporting receipts writes invoices, so it
 * is in the invoicing stack with the sign endpoint.
 */

// In the exchange stack: the events stack, where the other ADMIN endpoints are, is at its resource budget.
const devices = /* @__PURE__ */ endpointsOf({ domain: 'receipts', ...BUSINESS_ADMIN, stack: 'exchange' })

export const deviceRegister = /* @__PURE__ */ devices({
  functionId: 'device-register',
  routes: [{ method: 'POST', path: '/devices' }],
  // The device, the business's active count and the key's guard (DEVICE#); the test clock's time.
  // The device by its id alone (DEVICEID#), for the public verification page.
  access: { table: [writes([DEVICE_PREFIX, DEVICE_BY_ID_PREFIX]), reads([TEST_CLOCK_PREFIX])] },
  request: { body: RegisterDeviceRequest },
})
export const deviceList = /* @__PURE__ */ devices({
  functionId: 'device-list',
  routes: [{ method: 'GET', path: '/devices' }],
  access: { table: [reads([DEVICE_PREFIX])] },
  request: { query: DevicesQuery },
})
export const deviceGet = /* @__PURE__ */ devices({
  functionId: 'device-get',
  routes: [{ method: 'GET', path: '/devices/{id}' }],
  access: { table: [reads([DEVICE_PREFIX])] },
  request: { params: DevicePath },
})
export const deviceRevoke = /* @__PURE__ */ devices({
  functionId: 'device-revoke',
  routes: [{ method: 'DELETE', path: '/devices/{id}' }],
  access: { table: [writes([DEVICE_PREFIX, DEVICE_BY_ID_PREFIX]), reads([TEST_CLOCK_PREFIX])] },
  request: { params: DevicePath },
})
export const deviceChain = /* @__PURE__ */ devices({
  functionId: 'device-chain',
  routes: [{ method: 'GET', path: '/devices/{id}/chain' }],
  // The device (DEVICE#), its chain item (RCPT#), and the test clock for the gaps' deadlines.
  access: { table: [reads([DEVICE_PREFIX, RECEIPT_PREFIX, TEST_CLOCK_PREFIX])] },
  request: { params: DevicePath },
})

const receipts = /* @__PURE__ */ endpointsOf({
  domain: 'receipts',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1'],
})

export const receiptsReport = /* @__PURE__ */ receipts({
  functionId: 'receipts-report',
  metric: 'invoices',
  routes: [{ method: 'POST', path: '/receipts' }],
  roles: ANY,
  // A reported receipt is signed and stored as sign stores an invoice (IRN#, EVENT#, AUDIT#, the
  // search numbers and list, the JWKS entry of the signing key), with its own items (RCPT#); the
  // devices (DEVICE#) and the test clock are read, and what the invoice rules read.
  access: {
    table: [
      writes([
        'IRN#',
        'EVENT#',
        'AUDIT#',
        RECEIPT_PREFIX,
        keys.signingKeys(),
        SEARCH_COUNTER_PREFIX,
        SEARCH_LIST_PREFIX,
      ]),
      reads([
        DEVICE_PREFIX,
        TEST_CLOCK_PREFIX,
        'BUSINESS#',
        'TIN#',
        'SERVICEID#',
        'REF#',
        PARTY_PREFIX,
        POSTAL_ADDRESS_PREFIX,
      ]),
    ],
    encrypt: ['invoice'],
    secrets: ['signing-key'],
  },
  request: { body: ReportReceiptsRequest },
})

const NOT_ADMIN = 'The API key lacks the ADMIN role'
const UNKNOWN_DEVICE =
  'Your business has no device with this id (a test-mode key sees no live device): nothing is revealed about other businesses'

const PublicKey = () =>
  z.union([
    z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() }),
    z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
  ])
const Device = /* @__PURE__ */ lazy(() =>
  z.object({
    device_id: z.string().meta({ examples: ['dev_0193a1b2c3d4e5f60718293a4b5c6d7e8f90'] }),
    name: z.string(),
    public_key: PublicKey(),
    status: z.enum(['ACTIVE', 'REVOKED']),
    registered_at: z.string(),
    revoked_at: z.string().optional(),
    genesis_hash: z.string().meta({
      description: "base64url (no padding) of SHA-256 of the UTF-8 device_id: counter 1's prev_hash",
    }),
  }),
)
const Problem = () => Warning()
const ReceiptResult = /* @__PURE__ */ lazy(() => {
  const base = {
    hash: z
      .string()
      .meta({ description: "base64url SHA-256 of the receipt's RFC 8785 bytes (without `signature`)" }),
    status: z.enum(['REPORTED', 'DUPLICATE', 'FORK', 'REJECTED']),
    irn: z.string().optional(),
    late: z.boolean().optional().meta({ description: 'true: received after report_by (issued_at + 24 h)' }),
    fork_of: z.string().optional().meta({ description: 'FORK: the receipt this one forks from' }),
    errors: z.array(Problem()).optional().meta({ description: 'REJECTED: why, each with its path' }),
  }
  return z.object({
    ...base,
    duplicate_of: z
      .string()
      .optional()
      .meta({ description: 'DUPLICATE: the hash of the receipt reported before' }),
    first: z.object(base).optional().meta({ description: 'DUPLICATE: the first result of that receipt' }),
  })
})
const Chain = /* @__PURE__ */ lazy(() =>
  z.object({
    device_id: z.string(),
    last_counter: z.int().meta({ description: 'The highest counter received (0: none)' }),
    last_hash: z.string().nullable(),
    verified_through: z.int().meta({
      description: 'The highest n such that receipts 1..n are all here and each names its predecessor',
    }),
    gaps: z.array(
      z.object({
        from: z.int(),
        to: z.int(),
        overdue: z
          .boolean()
          .meta({ description: '24 h have passed since the issued_at of the receipt after it' }),
      }),
    ),
    forks: z.array(z.object({ counter: z.int(), hashes: z.array(z.string()) })),
    late_count: z.int(),
    last_received_at: z.string().nullable(),
  }),
)

export const deviceRegisterDocs = (): EndpointDocs => ({
  summary: 'Register a device that signs B2C receipts (ADMIN)',
  description:
    "A till, a terminal or an app instance of the caller's business, in the calling key's mode, with the public half of the key it signs receipts with: a JWK, Ed25519 (`OKP`) or P-256 (`EC`). A JWK holding `d` is refused. At most 100 active devices per business and mode; a key already registered is 409. The reply's `genesis_hash` is what the device's receipt 1 names as `prev_hash`.",
  example: {
    name: 'Till 3, Lekki',
    public_key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
  },
  replies: () => ({
    201: { description: 'Registered', data: Device() },
    400: 'The body is invalid, or the key is not a public Ed25519 or P-256 JWK (INVALID_DEVICE_KEY, at its path)',
    403: NOT_ADMIN,
    409: 'The business has 100 active devices of this mode (TOO_MANY_DEVICES), or the key is registered already (DEVICE_KEY_REGISTERED)',
    503: "Other changes to the business's devices were being made at the same moment: nothing changed, try again",
  }),
})

export const deviceListDocs = (): EndpointDocs => ({
  summary: "The business's devices (ADMIN)",
  description:
    "Every device of the calling key's mode, revoked ones included, in registration order, `size` at a time (up to 100, default 50). The next page: pass `cursor` = the reply's `page.next_cursor` (null on the last page).",
  replies: () => ({
    200: {
      description: 'One page of devices',
      data: z.object({
        content: z.array(Device()),
        page: z.object({ size: z.int(), next_cursor: z.string().nullable() }),
      }),
    },
    400: 'The size or the cursor is invalid',
    403: NOT_ADMIN,
  }),
})

export const deviceGetDocs = (): EndpointDocs => ({
  summary: 'A device (ADMIN)',
  description: 'The device as registered: name, public key, status and times.',
  replies: () => ({
    200: { description: 'The device', data: Device() },
    400: 'The id in the path is not a device id',
    403: NOT_ADMIN,
    404: UNKNOWN_DEVICE,
  }),
})

export const deviceRevokeDocs = (): EndpointDocs => ({
  summary: 'Revoke a device (ADMIN)',
  description:
    "REVOKED from now on (the business's test clock in test mode): its receipts issued before `revoked_at` are still accepted, later ones are REJECTED. It no longer counts towards the 100 active devices. Revoking a revoked device changes nothing.",
  replies: () => ({
    200: { description: 'Revoked', data: Device() },
    400: 'The id in the path is not a device id',
    403: NOT_ADMIN,
    404: UNKNOWN_DEVICE,
  }),
})

export const deviceChainDocs = (): EndpointDocs => ({
  summary: "A device's receipt chain (ADMIN)",
  description:
    "What the device's reported receipts prove: the last counter and hash received, `verified_through` (receipts 1..n all here, each naming its predecessor's hash), the gaps (missing counters; `overdue` once 24 h have passed since the issued_at of the receipt after the gap, by the business's test clock in test mode), the forks (two receipts at one counter, or naming one prev_hash, or a link that does not match), the late receipts' count and when the last receipt arrived. Current as soon as the request that reported the receipts has replied.",
  replies: () => ({
    200: { description: 'The chain', data: Chain() },
    400: 'The id in the path is not a device id',
    403: NOT_ADMIN,
    404: UNKNOWN_DEVICE,
  }),
})

/** A request of one receipt, for the OpenAPI document (a function: read only when the document is built). */
const reportExample = () => ({
  receipts: [
    {
      irn: 'RCT000042-94ND90NR-20261121',
      business_id: '11111111-1111-4111-8111-111111111111',
      issue_date: '2026-11-21',
      invoice_type_code: '381',
      invoice_kind: 'B2C',
      payment_status: 'PAID',
      document_currency_code: 'NGN',
      tax_currency_code: 'NGN',
      accounting_supplier_party: {
        party_name: 'Dangote Cement Plc',
        tin: '12345678-0001',
        email: 'billing@supplier.example',
        postal_address: {
          street_name: '12 Marina Road',
          city_name: 'Lagos Island',
          postal_zone: '100001',
          lga: 'NG-LA-LAI',
          state: 'NG-LA',
          country: 'NG',
        },
      },
      tax_total: [
        {
          tax_amount: 75,
          tax_subtotal: [
            { taxable_amount: 1000, tax_amount: 75, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } },
          ],
        },
      ],
      legal_monetary_total: {
        line_extension_amount: 1000,
        tax_exclusive_amount: 1000,
        tax_inclusive_amount: 1075,
        payable_amount: 1075,
      },
      invoice_line: [
        {
          item: { name: 'Cement 50kg', description: 'Portland cement' },
          price: { price_amount: 1000, base_quantity: 1, price_unit: 'NGN per 1' },
          hsn_code: '2523.29',
          product_category: 'Building materials',
          invoiced_quantity: 1,
          line_extension_amount: 1000,
        },
      ],
      device: {
        device_id: 'dev_0193a1b2c3d4e5f60718293a4b5c6d7e8f90',
        counter: 1,
        prev_hash: 'x3Xnt1ft5jDNCqERO9ECZhqziCnKUqZCKreChi8mhkY',
        issued_at: '2026-11-21T10:15:30Z',
      },
      signature: 'k6fQ1l7n0tPq3xW2yV8uB5cZ4aS9dE1fG6hJ7kL0mN3oP2qR5sT8uV1wX4yZ7aB0cD3eF6gH9iJ2kL5mN8oP1qRw',
    },
  ],
})

export const receiptsReportDocs = (): EndpointDocs => ({
  summary: 'Report B2C receipts signed by registered devices',
  description: `Up to ${MAX_RECEIPTS} receipts (or the 1 MiB body limit) a request, each a v2 invoice with \`invoice_kind\` B2C (buyer optional) plus \`device: {device_id, counter, prev_hash, issued_at}\` and \`signature\` (base64url; Ed25519, or ES256 as r || s) over the receipt's RFC 8785 bytes without \`signature\`. The reply has one result per receipt, in order: REPORTED (signed by the service and stored as an invoice of the business, as sign stores one: confirm, search, the PDF and UBL routes find it; \`late: true\` past report_by = issued_at + 24 h), DUPLICATE (a byte-identical receipt was received before: \`duplicate_of\` and its first result, for as long as the receipt is kept), FORK (another receipt holds that device and counter, or names the same prev_hash: both are kept, the first untouched), REJECTED (\`errors\`: unknown device, device revoked at issued_at, signature wrong, counter 1 not naming the genesis hash, issued_at more than 5 minutes ahead of the server, an IRN already used, or the invoice rules). Receipts may arrive in any order and none waits for another. A receipt rejected for its content keeps its counter: its correction is a new receipt naming \`corrects\` (the rejected hash).`,
  example: reportExample(),
  replies: () => ({
    200: { description: 'One result per receipt, in order', data: z.array(ReceiptResult()) },
    400: 'The body is not `{receipts: [...]}` with 1 to 1,000 receipts',
  }),
})
