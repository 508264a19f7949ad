import type { Access } from '#lib/platform/iam/access.ts'

/**
 * The words a route is described in: what an endpoint declaration (./endpoint.ts) says about where it
 * is served and who may call it, and the served route the handler factory, the auth schemes and the
 * reply records read at run time.
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
 * The API a route is served as (CONTRACT 17). `seed`: the interface's own paths and rules.
 * `authority`: the authority's MBS API paths, for clients written against it: the same endpoint,
 * with the authority's error record and its more lenient request rules, chosen at the edge.
 */
export type Profile = 'seed' | 'authority'

export type { ModeSecret, ServiceSecret } from '#lib/platform/iam/access.ts'
export { SECRET_ENV, secretOfMode } from '#lib/platform/iam/access.ts'

/**
 * The deployment unit an endpoint belongs to: one CloudFormation stack each (infra/stacks), so no
 * stack nears CloudFormation's 500-resource limit (CONTRACT section 13).
 */
export type StackName =
  | 'invoicing'
  | 'reference'
  /** The authority's exchange routes (CONTRACT 17): parties, entity, lookups, receipt, the inbox. */
  | 'exchange'
  | 'events'
  | 'payments'
  | 'merchant'
  | 'notifications'
  /** The catch-all, with the HTTP API itself. */
  | 'edge'

/**
 * One route as served: where (method, full path), by which function, under which scheme and roles,
 * and in which area's record it replies. Derived from the endpoint declarations (lib/service/routes.ts), never
 * written by hand.
 */
export interface Route {
  method: HttpMethod
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string
  functionId: string
  /** The module exporting `handler`, relative to the project root (functions/<domain>/<functionId>.ts). */
  handler: string
  area: Area
  auth: AuthScheme
  /** Area A roles allowed on this route (CONTRACT section 2). */
  roles: readonly Role[]
  reply: ReplyKind
  /** The API the route is served as: its error record and request rules (CONTRACT 17). */
  profile: Profile
  /**
   * The body the endpoint's schema validates is built from the path's parameters (the authority's
   * `POST /invoice/transmit/{irn}` carries in its path what the seed's body carries).
   */
  bodyFromPath?: true
  /** The body may be XML too (the request declaration's `xmlBody`): its function ships the UBL in chunk. */
  xmlBody?: true
  /** The reply reports EN 16931 findings (the request declaration's `en16931`): its function ships the EN 16931 chunk. */
  en16931?: true
  /** The stack that deploys its function. */
  stack: StackName
  /** What the function may do in AWS (its declaration's, without its auth scheme's own). */
  access: Access
  /** The function writes business data: an Idempotency-Key is honoured on its POST and PATCH routes. */
  writes: boolean
  /** The health check also answers callers without credentials, with less detail. */
  allowAnonymous?: boolean
  /**
   * Its success reply carries a secret shown once: the idempotency layer keeps that reply sealed
   * (lib/platform/http/sealed-reply.ts), never in plain text.
   */
  sealedReply?: true
  /** The business metric its replies are counted in (lib/platform/http/observability.ts). */
  metric?: BusinessMetric
  /**
   * Files the function reads at run time (not code it imports): an npm package's by module path, or
   * the project's own by a path from its root starting with `./` (the OpenAPI document). Copied
   * beside the function's bundle in AWS, read where they are locally.
   */
  files?: readonly string[]
  /** Its function's timeout in seconds (the declaration's `timeoutSeconds`); absent, the house 10 s. */
  timeoutSeconds?: number
}

/** Where a route's `files` entry is, relative to the project root: the project's own, or node_modules. */
export const projectFile = (file: string): string =>
  file.startsWith('./') ? file.slice(2) : `node_modules/${file}`

/**
 * `invoices`: validate and sign outcomes and the rule codes of rejections; `transactions`: Area B
 * money movements by operation and response code.
 */
export type BusinessMetric = 'invoices' | 'transactions'

/** `METHOD /path`, as API Gateway's routeKey spells it. */
export const routeKey = (r: Pick<Route, 'method' | 'path'>): string => `${r.method} ${r.path}`
