import type * as z from 'zod'
import type { DomainError, Problem } from '#lib/errors.ts'

/**
 * One endpoint's declaration (CONTRACT section 10): what it accepts and every reply it gives. The
 * route table (lib/routes.ts) says where it is served and who may call it (method, path, auth scheme,
 * roles, reply record); this says what goes in and out. Written once, in lib/endpoints/, and read by
 * everything else: the handler factory validates requests with it, the OpenAPI document and the docs
 * page are generated from it, and the tests check every reply against that document.
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
 * (lib/http/records.ts), so an endpoint never declares one of its own.
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
}

export interface Endpoint<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
> {
  /** The route table's functionId: the routes this function serves take this declaration. */
  functionId: string
  request: EndpointRequest<B, Q, P>
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
  B extends z.ZodType = z.ZodType<unknown>,
  Q extends z.ZodType = z.ZodType<unknown>,
  P extends z.ZodType = z.ZodType<unknown>,
>(
  declaration: Endpoint<B, Q, P>,
): Endpoint<B, Q, P> => declaration

export const isSuccess = (reply: SuccessReply | string): reply is SuccessReply => typeof reply !== 'string'

/** A schema built once, on first use (the document's schemas are never built in a function). */
export function lazy<T>(make: () => T): () => T {
  let made: T | undefined
  return () => {
    made ??= make()
    return made
  }
}
