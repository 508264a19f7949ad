import { REFERENCE_LISTS } from '#lib/reference/lists.ts'

/**
 * The route table: the single source of truth for what the API serves. The CDK ApiStack creates one
 * Lambda function per `functionId` and one HTTP API route per entry from it; the local server routes
 * requests with it; the handler factory reads a request's route from it (by routeKey) to know how to
 * authenticate the caller and which area's reply record to use. A function's Lambda bundle carries
 * only its own routes, taken from this table when it is built (lib/http/route-lookup.ts).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** A: e-invoicing, B: signed bank transactions, C: merchant history, D: notification admin. */
export type Area = 'A' | 'B' | 'C' | 'D'

export type AuthScheme =
  /** Area A: x-api-key, x-api-signature, x-api-timestamp (CONTRACT section 2). */
  | 'api-signature'
  /** Area B: bearer token plus X-Signature, X-Timestamp, X-Nonce (CONTRACT section 6). */
  | 'switch-signature'
  /** Area C: a merchant's bearer token plus x-Merchant-Id. */
  | 'merchant-bearer'
  /** Area D: the notification admin key as a bearer token. */
  | 'admin-bearer'
  /** Public by design (the JWKS, the OpenAPI document). */
  | 'none'

export type Role = 'SI' | 'APP' | 'ADMIN'

/**
 * The success record of a route. `envelope`: Area A's `{status, message, data, execTime, error}`;
 * `record`: the route's own record (validate, sign, IRNs, health); `bank`: Area B's flat record with
 * responseCode; `merchant`: Area C's envelope; `notification`: Area D's `{status, message, data}`.
 */
export type ReplyKind = 'envelope' | 'record' | 'bank' | 'merchant' | 'notification'

/**
 * What a function may do to the table. `read` functions may still write the short-lived replay or
 * nonce items of their auth scheme, and nothing else (the stack scopes that by key prefix); `none`
 * functions get no table permission at all (public routes that read nothing stored).
 */
export type TableAccess = 'none' | 'read' | 'write'

export interface Route {
  method: HttpMethod
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string
  /** One Lambda function per id; several routes (v1 and v2) may share one. */
  functionId: string
  /** The module exporting `handler`, relative to the project root. */
  handler: string
  area: Area
  auth: AuthScheme
  /** Area A roles allowed on this route (CONTRACT section 2). */
  roles: Role[]
  reply: ReplyKind
  tableAccess: TableAccess
  /** The health check also answers callers without credentials, with less detail. */
  allowAnonymous?: boolean
  /** Service keys the function loads (from Secrets Manager in AWS): the stack grants read on just these. */
  secrets?: ServiceSecret[]
  /**
   * Files of npm packages the function reads at run time (not code it imports), by module path:
   * copied beside the function's bundle in AWS, read from node_modules locally.
   */
  files?: string[]
}

/** The service's own private keys: the invoice signing key (Ed25519) and the QR authority key (RSA). */
export type ServiceSecret = 'signing-key' | 'qr-authority-key'

/** The environment variable through which a function learns each secret's ARN. */
export const SECRET_ENV: Record<ServiceSecret, string> = {
  'signing-key': 'SIGNING_KEY_SECRET_ARN',
  'qr-authority-key': 'QR_KEY_SECRET_ARN',
}

const SI: Role[] = ['SI', 'ADMIN']
const APP: Role[] = ['APP', 'ADMIN']
const ANY: Role[] = ['SI', 'APP', 'ADMIN']

// In a module of their own, so a reference list's function can name the lists without the table.
export { REFERENCE_LISTS, type ReferenceListName } from '#lib/reference/lists.ts'

type AreaARoute = Omit<Route, 'area' | 'auth' | 'path'> & { path: string; auth?: AuthScheme }

/** Area A endpoints, served under both /api/v1 and /api/v2. */
const areaA: AreaARoute[] = [
  {
    method: 'POST',
    path: '/si/validate',
    functionId: 'si-validate',
    handler: 'functions/invoice/si-validate.ts',
    roles: SI,
    reply: 'record',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/si/generate-qr-code',
    functionId: 'si-generate-qr-code',
    secrets: ['qr-authority-key'],
    handler: 'functions/qr/generate-qr-code.ts',
    roles: SI,
    reply: 'envelope',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/si/generate-irn',
    functionId: 'si-generate-irn',
    handler: 'functions/irn/generate-irn.ts',
    roles: SI,
    reply: 'record',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/si/generate-invoice-number',
    functionId: 'si-generate-invoice-number',
    handler: 'functions/invoice-number/generate-invoice-number.ts',
    roles: SI,
    reply: 'envelope',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/resource/verify-tin',
    functionId: 'resource-verify-tin',
    handler: 'functions/taxpayer/verify-tin.ts',
    roles: ANY,
    reply: 'envelope',
    tableAccess: 'read',
  },
  {
    method: 'POST',
    path: '/app/invoice/validate',
    functionId: 'app-invoice-validate',
    secrets: ['signing-key'],
    handler: 'functions/invoice/app-validate.ts',
    roles: APP,
    reply: 'record',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/app/invoice/sign',
    functionId: 'app-invoice-sign',
    secrets: ['signing-key'],
    handler: 'functions/invoice/app-sign.ts',
    roles: APP,
    reply: 'record',
    tableAccess: 'write',
  },
  {
    method: 'POST',
    path: '/app/invoice/validate-irn',
    functionId: 'app-invoice-validate-irn',
    handler: 'functions/irn/validate-irn.ts',
    roles: APP,
    reply: 'record',
    tableAccess: 'read',
  },
  {
    method: 'POST',
    path: '/app/invoice/transmit',
    functionId: 'app-invoice-transmit',
    handler: 'functions/lifecycle/transmit.ts',
    roles: APP,
    reply: 'envelope',
    tableAccess: 'write',
  },
  {
    method: 'PATCH',
    path: '/app/invoice/update/{irn}',
    functionId: 'app-invoice-update',
    handler: 'functions/lifecycle/update.ts',
    roles: APP,
    reply: 'envelope',
    tableAccess: 'write',
  },
  {
    method: 'GET',
    path: '/app/invoice/confirm/{irn}',
    functionId: 'app-invoice-confirm',
    handler: 'functions/lifecycle/confirm.ts',
    roles: APP,
    reply: 'envelope',
    tableAccess: 'read',
  },
  // Batches (CONTRACT section 11): accepted here, worked through by functions/batches/worker.ts.
  {
    method: 'POST',
    path: '/app/invoice/batch',
    functionId: 'app-invoice-batch-submit',
    handler: 'functions/batches/submit.ts',
    roles: APP,
    reply: 'record',
    tableAccess: 'write',
  },
  {
    method: 'GET',
    path: '/app/invoice/batch/{batch_id}',
    functionId: 'app-invoice-batch-status',
    handler: 'functions/batches/status.ts',
    roles: APP,
    reply: 'record',
    tableAccess: 'read',
  },
  // The SI invoice-types list is the same list as /resource/invoice-types: one function serves both.
  {
    method: 'GET',
    path: '/si/invoice-types',
    functionId: 'resource-invoice-types',
    handler: 'functions/resource/invoice-types.ts',
    roles: SI,
    reply: 'envelope',
    tableAccess: 'read',
  },
  {
    method: 'GET',
    path: '/si/get-invoice/{irn}',
    functionId: 'si-get-invoice',
    handler: 'functions/lifecycle/get-invoice.ts',
    roles: SI,
    reply: 'envelope',
    tableAccess: 'read',
  },
  ...REFERENCE_LISTS.map(
    (list): AreaARoute => ({
      method: 'GET',
      path: `/resource/${list}`,
      functionId: `resource-${list}`,
      handler: `functions/resource/${list}.ts`,
      roles: ANY,
      reply: 'envelope',
      tableAccess: 'read',
    }),
  ),
]

/** Area A endpoints under /api/v1 only: the spec's health check and the contract's additions. */
const areaAv1Only: AreaARoute[] = [
  {
    method: 'GET',
    path: '/health-check',
    functionId: 'health-check',
    secrets: ['signing-key', 'qr-authority-key'],
    handler: 'functions/health/health-check.ts',
    roles: ANY,
    reply: 'record',
    tableAccess: 'read',
    allowAnonymous: true,
  },
  {
    method: 'GET',
    path: '/resource/public-keys',
    functionId: 'resource-public-keys',
    handler: 'functions/resource/public-keys.ts',
    roles: ANY,
    reply: 'record',
    tableAccess: 'none',
    auth: 'none',
  },
  {
    method: 'POST',
    path: '/resource/verify-qr',
    functionId: 'resource-verify-qr',
    secrets: ['qr-authority-key'],
    handler: 'functions/qr/verify-qr.ts',
    roles: ANY,
    reply: 'envelope',
    tableAccess: 'read',
  },
]

/** Webhook subscriptions and their delivery log (CONTRACT section 11): a business's ADMIN keys only. */
const webhooks: AreaARoute[] = [
  ['POST', '/webhooks', 'webhook-subscription-create', 'subscription-create', 'write'],
  ['GET', '/webhooks', 'webhook-subscription-list', 'subscription-list', 'read'],
  ['DELETE', '/webhooks/{id}', 'webhook-subscription-delete', 'subscription-delete', 'write'],
  ['GET', '/webhooks/{id}/deliveries', 'webhook-deliveries-list', 'deliveries-list', 'read'],
  [
    'POST',
    '/webhooks/{id}/deliveries/{eventId}/redeliver',
    'webhook-delivery-redeliver',
    'delivery-redeliver',
    'write',
  ],
].map(([method, path, functionId, module, tableAccess]) => ({
  method: method as HttpMethod,
  path: path!,
  functionId: functionId!,
  handler: `functions/webhooks/${module}.ts`,
  roles: ['ADMIN'],
  reply: 'envelope',
  tableAccess: tableAccess as TableAccess,
}))

const versioned = (version: 'v1' | 'v2', r: AreaARoute): Route => ({
  ...r,
  path: `/api/${version}${r.path}`,
  area: 'A',
  auth: r.auth ?? 'api-signature',
})

const areaB: Route[] = (['balance-enquiry', 'transfer', 'reversal'] as const).map((name) => ({
  method: 'POST',
  path: `/api/v1/transactions/${name}`,
  functionId: `transactions-${name}`,
  handler: `functions/transactions/${name}.ts`,
  area: 'B',
  auth: 'switch-signature',
  roles: [],
  reply: 'bank',
  tableAccess: 'write',
}))

const areaC: Route[] = [
  {
    method: 'GET',
    path: '/api/v1/merchant/transactions',
    functionId: 'merchant-transactions',
    handler: 'functions/merchant/transactions.ts',
    area: 'C',
    auth: 'merchant-bearer',
    roles: [],
    reply: 'merchant',
    tableAccess: 'read',
  },
  {
    method: 'GET',
    path: '/api/v1/merchant/statement',
    functionId: 'merchant-statement',
    handler: 'functions/merchant/statement.ts',
    area: 'C',
    auth: 'merchant-bearer',
    roles: [],
    reply: 'merchant',
    tableAccess: 'read',
  },
]

const notification = (
  method: HttpMethod,
  path: string,
  functionId: string,
  tableAccess: TableAccess,
  handler: string,
): Route => ({
  method,
  path,
  functionId,
  handler,
  area: 'D',
  auth: 'admin-bearer',
  roles: [],
  reply: 'notification',
  tableAccess,
})

const areaD: Route[] = [
  notification(
    'POST',
    '/notification/template',
    'notification-template-create',
    'write',
    'functions/notification/template-create.ts',
  ),
  notification(
    'GET',
    '/notification/template',
    'notification-template-list',
    'read',
    'functions/notification/template-list.ts',
  ),
  notification(
    'PUT',
    '/notification/template/{templateId}',
    'notification-template-replace',
    'write',
    'functions/notification/template-replace.ts',
  ),
  notification(
    'POST',
    '/notification/email',
    'notification-email-add',
    'write',
    'functions/notification/email-add.ts',
  ),
  notification(
    'DELETE',
    '/notification/email',
    'notification-email-remove',
    'write',
    'functions/notification/email-remove.ts',
  ),
  notification(
    'GET',
    '/notification/email',
    'notification-email-list',
    'read',
    'functions/notification/email-list.ts',
  ),
]

/** The OpenAPI document of this API and the docs page rendered from it, public like any API reference. */
const meta: Route[] = [
  {
    method: 'GET',
    path: '/api/openapi.json',
    functionId: 'openapi',
    handler: 'functions/meta/openapi.ts',
    area: 'A',
    auth: 'none',
    roles: [],
    reply: 'record',
    tableAccess: 'none',
  },
  {
    method: 'GET',
    path: '/api/docs',
    functionId: 'docs',
    handler: 'functions/meta/docs.ts',
    area: 'A',
    auth: 'none',
    roles: [],
    reply: 'record',
    tableAccess: 'read',
    files: ['redoc/bundles/redoc.standalone.js'],
  },
]

export const routes: readonly Route[] = [
  ...areaA.map((r) => versioned('v1', r)),
  ...areaA.map((r) => versioned('v2', r)),
  ...areaAv1Only.map((r) => versioned('v1', r)),
  ...webhooks.map((r) => versioned('v1', r)),
  ...areaB,
  ...areaC,
  ...areaD,
  ...meta,
]

/** `METHOD /path`, as API Gateway's routeKey spells it. */
export const routeKey = (r: Pick<Route, 'method' | 'path'>): string => `${r.method} ${r.path}`

const byKey = new Map(routes.map((r) => [routeKey(r), r]))

export function findRoute(key: string): Route | undefined {
  return byKey.get(key)
}

/** The functions to deploy: one per functionId, with the routes it serves. */
export function functionsOf(table: readonly Route[] = routes): Map<string, Route[]> {
  const functions = new Map<string, Route[]>()
  for (const r of table) {
    const list = functions.get(r.functionId) ?? []
    list.push(r)
    functions.set(r.functionId, list)
  }
  return functions
}

/** Takes every request no route matches (API Gateway's `$default` route; the local server's fallback). */
export const UNROUTED = { functionId: 'unrouted', handler: 'functions/unrouted.ts' } as const
