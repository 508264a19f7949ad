import type * as z from 'zod'
import type { DomainError, Problem } from '#lib/platform/errors.ts'
import type { Access, TableAction } from '#lib/platform/iam/access.ts'
import type {
  Area,
  AuthScheme,
  BusinessMetric,
  HttpMethod,
  Profile,
  ReplyKind,
  Role,
  Route,
  StackName,
} from '#lib/platform/http/route.ts'

/**
 * One endpoint's whole declaration (CONTRACT sections 10 and 13): where it is served and who may call
 * it, what it accepts and every reply it gives, what it may do in AWS and which stack deploys it.
 * Written once, in lib/service/endpoints/<domain>.ts, and read by everything else: the route table
 * (lib/service/routes.ts), the handler factory, the local server, the IAM policies and the local IAM guard,
 * the stacks, the OpenAPI document and the docs page. The handler is functions/<domain>/<functionId>.ts.
 */

export type ApiVersion = 'v1' | 'v2'

/** One schema per API version, for the few records that differ between /api/v1 and /api/v2. */
export interface PerVersion<T> {
  perVersion: true
  v1: T
  v2: T
}
export type Versioned<T> = T | PerVersion<T>

export const perVersion = <T>(v1: T, v2: T): PerVersion<T> => ({ perVersion: true, v1, v2 })

export function forVersion<T>(value: Versioned<T>, version: ApiVersion | undefined): T {
  if (typeof value === 'object' && value !== null && 'perVersion' in value) return value[version ?? 'v1']
  return value as T
}

/** A request header the endpoint reads (beyond the auth scheme's own headers). */
export interface HeaderParameter {
  name: string
  description: string
  schema: z.ZodType
  required?: boolean
}

/** A success reply: the route's record around `data` (or, for `record` routes, `data` itself). */
export interface SuccessReply {
  description: string
  /** The data; absent for replies with no data (Area D's `{status, message}`), or an empty body. */
  data?: Versioned<z.ZodType>
  /** No body at all (304 Not Modified, 204). */
  empty?: true
  /** The media type when it is not JSON (the docs page's text/html); `data` is then the body as is. */
  mediaType?: string
  /** Other media types the same reply may come in (by Accept), each with its description. */
  otherMedia?: Record<string, string>
  /** Headers the reply carries, by name: their description. */
  headers?: Record<string, string>
  /** An example of the whole reply body (validated against its schema by a test). */
  example?: Versioned<unknown>
  /**
   * The status is also the area's error record when the factory refuses the request first (the
   * health check's 503: DOWN from the handler, or a dependency the authentication needs is down).
   */
  orError?: string
}

/**
 * A reply, by HTTP status. Statuses below 400 are successes (a SuccessReply); an error status maps to
 * a description of when it happens, and its body is always the error record of the route's area
 * (lib/platform/http/records.ts), so an endpoint never declares one of its own.
 */
export type Replies = Record<number, SuccessReply | string>

/** What the function validates a request with: the half of a declaration its bundle carries. */
export interface EndpointRequest<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  body?: Versioned<B>
  query?: Q
  params?: P
  /**
   * Who validates the body. `factory` (default): the handler factory, before the handler runs.
   * `service`: the domain validates with this same schema, because it reports the schema's problems
   * and its business rules' problems together in one 400 (the invoice).
   */
  bodyValidation?: 'factory' | 'service'
  /**
   * Who validates the query. `factory` (default), or `handler`: the handler parses it with this
   * schema, or a variant of it, because the limits depend on the reply's format (CSV pages).
   */
  queryValidation?: 'factory' | 'handler'
  /** The error for an invalid body, when the area's record needs more than a 400 (Area B's codes). */
  invalidBody?: (problems: Problem[], summary: string) => DomainError
  /**
   * The body may also be XML (`Content-Type: application/xml`, text/xml or +xml): the handler then
   * receives it as an XmlBody (lib/platform/http/xml-body.ts), unparsed; with `bodyValidation:
   * 'service'` only. The invoice endpoints take UBL 2.1 this way (CONTRACT 22).
   */
  xmlBody?: true
  /**
   * The reply reports the invoice's EN 16931 business-rule findings (`en16931`, CONTRACT 22): the
   * function ships the EN 16931 chunk (infra/constructs/api-function.ts, EN16931_CHUNK).
   */
  en16931?: true
  /**
   * Body paths whose strings are whole documents (a batch's UBL items, CONTRACT 22): bounded by the
   * 1 MiB body limit, not by the 4,096-character bound of every other string (CONTRACT 18).
   */
  documentPaths?: RegExp
}

/**
 * A route of an endpoint: Area A paths are relative to `/api/<version>`, for each of its versions;
 * an `authority` route's path is whole (the authority's own, served once, as API version v1).
 */
export interface RouteSpec {
  method: HttpMethod
  path: string
  /** When this route admits other Area A roles than the endpoint's. */
  roles?: readonly Role[]
  /** `authority`: one of the authority's MBS API paths for this endpoint (CONTRACT 17). */
  profile?: Exclude<Profile, 'seed'>
  /** The body is built from the path's parameters (the route sends none). */
  bodyFromPath?: true
  /** Of an endpoint that answers anonymous callers, a route that does not (the authority's signed health check). */
  signedOnly?: true
}

export interface Endpoint<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  S extends AuthScheme = AuthScheme,
> {
  /** The Lambda function's name within the service; its handler module is functions/<domain>/<functionId>.ts. */
  functionId: string
  /** The lib/ domain (and functions/ folder) the endpoint belongs to. */
  domain: string
  /** The stack that deploys its function (infra/stacks). */
  stack: StackName
  area: Area
  /** The auth scheme: a handler built with another scheme's verifier does not compile (apiHandler). */
  auth: S
  /** Area A roles allowed (CONTRACT section 2); empty for the other areas. */
  roles: readonly Role[]
  reply: ReplyKind
  /** Area A: the versions each path is served under (`/api/<v><path>`); absent: paths are whole. */
  versions?: readonly ApiVersion[]
  routes: readonly RouteSpec[]
  /**
   * What the function may do in AWS beyond what its auth scheme and the idempotency layer need
   * (lib/service/function-access.ts adds those): its IAM policy and every local run's guard come from this.
   */
  access: Access
  /** The health check also answers callers without credentials, with less detail. */
  allowAnonymous?: boolean
  /**
   * Its success reply carries a secret shown once (a webhook signing secret, an issued API secret):
   * with an Idempotency-Key, the stored first reply is sealed with the data key (CONTRACT section 14).
   * Its handler passes `sealedReplies` (lib/platform/http/sealed-reply.ts) to apiHandler.
   */
  sealedReply?: true
  /** The business metric its replies are counted in (lib/platform/http/observability.ts). */
  metric?: BusinessMetric
  /**
   * Files the function reads at run time, copied beside its bundle: an npm package's by module path,
   * or the project's own by a path from its root starting with `./` (lib/platform/http/route.ts projectFile).
   */
  files?: readonly string[]
  /**
   * Its function's timeout in seconds, when not the house 10 s (infra/constructs/api-function.ts): a
   * bound the domain promises its callers (Area B is final within 10 s of receipt, CONTRACT 24).
   */
  timeoutSeconds?: number
  request: EndpointRequest<B, Q, P>
}

// The actions that change an item (reads and condition checks do not): what makes a route a writer.
const CHANGING_ACTIONS: ReadonlySet<TableAction> = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
])

/** Whether the endpoint changes stored business data (its POST and PATCH routes honour Idempotency-Key). */
export const writesData = (e: Pick<Endpoint, 'access'>): boolean =>
  e.access.table?.some((grant) => grant.actions.some((a) => CHANGING_ACTIONS.has(a))) ?? false

/** The handler module of an endpoint, relative to the project root. */
export const handlerOf = (e: Pick<Endpoint, 'domain' | 'functionId'>): string =>
  `functions/${e.domain}/${e.functionId}.ts`

/** The routes an endpoint serves, whole: the factory finds a request's route among these. */
export function routesOf(e: Endpoint): Route[] {
  const handler = handlerOf(e)
  const writes = writesData(e)
  const prefixes = e.versions ? e.versions.map((v) => `/api/${v}`) : ['']
  const seed = e.routes.filter((spec) => spec.profile !== 'authority')
  const authority = e.routes.filter((spec) => spec.profile === 'authority')
  const served = [
    ...prefixes.flatMap((prefix) => seed.map((spec) => ({ spec, path: `${prefix}${spec.path}` }))),
    ...authority.map((spec) => ({ spec, path: spec.path })),
  ]
  return served.map(({ spec, path }) => ({
    method: spec.method,
    path,
    functionId: e.functionId,
    handler,
    area: e.area,
    auth: e.auth,
    roles: spec.roles ?? e.roles,
    reply: e.reply,
    profile: spec.profile ?? 'seed',
    ...(spec.bodyFromPath ? { bodyFromPath: true as const } : {}),
    ...(e.request?.xmlBody ? { xmlBody: true as const } : {}),
    ...(e.request?.en16931 ? { en16931: true as const } : {}),
    stack: e.stack,
    access: e.access,
    writes,
    ...(e.allowAnonymous && !spec.signedOnly ? { allowAnonymous: true } : {}),
    ...(e.sealedReply ? { sealedReply: true as const } : {}),
    ...(e.metric ? { metric: e.metric } : {}),
    ...(e.files ? { files: e.files } : {}),
    ...(e.timeoutSeconds ? { timeoutSeconds: e.timeoutSeconds } : {}),
  }))
}

/**
 * What the document adds to an endpoint: its words, examples and every reply. Declared beside the
 * endpoint, in the same module, by a function that builds it on demand: a function's bundle imports
 * only the endpoint, and esbuild drops an unused function whatever it contains, so no bundle carries
 * any of it (an unused object literal would stay if it held a spread).
 */
export interface EndpointDocs {
  summary: string
  description: string
  /** Request headers the endpoint reads (beyond its auth scheme's own). */
  headers?: () => HeaderParameter[]
  /** At least one example body (validated against its schema by a test). */
  example?: Versioned<unknown>
  /**
   * Further request examples, by name, each with a summary: the sandbox's magic values (CONTRACT
   * section 15). The document then lists `example` as `default` among them (OpenAPI's `examples`).
   */
  examples?: Record<string, { summary: string; value: unknown }>
  /** An example body kept in a JSON file (relative to the project root), for large bodies. */
  exampleFile?: Versioned<string>
  /** Every reply, by status. */
  replies: () => Replies
}

/** An endpoint with its document half: what the OpenAPI document, the docs page and the tests read. */
export interface DocumentedEndpoint extends Endpoint, Omit<EndpointDocs, 'headers' | 'replies'> {
  headers: HeaderParameter[]
  replies: Replies
}

export function documented(endpoint: Endpoint, docsOf: () => EndpointDocs): DocumentedEndpoint {
  const docs = docsOf()
  return { ...endpoint, ...docs, headers: docs.headers?.() ?? [], replies: docs.replies() }
}

/** Declares an endpoint; the identity function, there for the types. */
export const endpoint = <
  const S extends AuthScheme,
  B extends z.ZodType = z.ZodType<unknown>,
  Q extends z.ZodType = z.ZodType<unknown>,
  P extends z.ZodType = z.ZodType<unknown>,
>(
  declaration: Endpoint<B, Q, P, S>,
): Endpoint<B, Q, P, S> => declaration

/** What every endpoint of one domain module shares: given once, by `endpointsOf`. */
type Shared = 'domain' | 'stack' | 'area' | 'auth' | 'reply' | 'roles' | 'versions' | 'timeoutSeconds'

/**
 * The declarer of one domain module's endpoints: the fields they share, given once. Each endpoint
 * may still override reply, roles, versions, stack and timeoutSeconds.
 */
export function endpointsOf<const S extends AuthScheme>(
  shared: Pick<Endpoint<z.ZodType, z.ZodType, z.ZodType, S>, 'domain' | 'stack' | 'area' | 'auth' | 'reply'> &
    Partial<Pick<Endpoint, 'roles' | 'versions' | 'timeoutSeconds'>>,
) {
  return <
    B extends z.ZodType = z.ZodType<unknown>,
    Q extends z.ZodType = z.ZodType<unknown>,
    P extends z.ZodType = z.ZodType<unknown>,
  >(
    own: Omit<Endpoint<B, Q, P, S>, Shared> &
      Partial<Pick<Endpoint<B, Q, P, S>, 'reply' | 'roles' | 'versions' | 'stack' | 'timeoutSeconds'>>,
  ): Endpoint<B, Q, P, S> => ({ roles: [], ...shared, ...own })
}

export const isSuccess = (reply: SuccessReply | string): reply is SuccessReply => typeof reply !== 'string'

/** A schema built once, on first use (the document's schemas are never built in a function). */
export function lazy<T>(make: () => T): () => T {
  let made: T | undefined
  return () => {
    made ??= make()
    return made
  }
}
