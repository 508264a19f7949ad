import type { paths } from './api-types.ts'
import { type AreaACredentials, type AreaBCredentials, signAreaA, signAreaB } from './signing.ts'

/**
 * Types of the published contract, generated from openapi.json by openapi-typescript
 * (client/api-types.ts): a path, its methods, each one's request and every reply it can give.
 */
export type ApiPath = keyof paths
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
export type MethodOf<P extends ApiPath> = {
  [M in Method]: paths[P][M] extends { responses: unknown } ? M : never
}[Method]
type Operation<P extends ApiPath, M extends MethodOf<P>> = paths[P][M]
type Responses<O> = O extends { responses: infer R } ? R : never
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined

/** The request an operation takes: its path and query parameters and its JSON body, as declared. */
export type RequestOf<P extends ApiPath, M extends MethodOf<P>> = (Operation<P, M> extends {
  parameters: { path: infer Params }
}
  ? Params extends Record<string, unknown>
    ? { params: Params }
    : { params?: never }
  : { params?: never }) &
  (Operation<P, M> extends { parameters: { query?: infer Q } }
    ? { query?: Q extends Record<string, unknown> ? { [K in keyof Q]?: Q[K] | number } : never }
    : { query?: never }) &
  (Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } }
    ? { body: B }
    : { body?: never }) & { headers?: Record<string, string> }

/** Every reply an operation can give, as a union discriminated by the HTTP status. */
export type ReplyOf<P extends ApiPath, M extends MethodOf<P>> = {
  [S in keyof Responses<Operation<P, M>>]: S extends number
    ? ClientReply<JsonOf<Responses<Operation<P, M>>[S]>> & { status: S }
    : never
}[keyof Responses<Operation<P, M>>]

/** A reply as the client sees it: status, headers and the parsed JSON body (or the raw text). */
export interface ClientReply<T = unknown> {
  status: number
  headers: Headers
  body: T
  /** The body exactly as received. */
  text: string
}

export type Credentials =
  | { area: 'A'; credentials: AreaACredentials }
  | { area: 'B'; credentials: AreaBCredentials }
  | { area: 'bearer'; token: string; headers?: Record<string, string> }
  | { area: 'none' }

/**
 * A small typed client for the API: signs every request for its area and sends it. The body is
 * serialised once and the same bytes are signed and sent.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: Credentials,
  ) {}

  async request<T = unknown>(
    method: string,
    target: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
    /** Aborts the request, e.g. `AbortSignal.timeout(ms)`: fetch then rejects. */
    signal?: AbortSignal,
  ): Promise<ClientReply<T>> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...this.authHeaders(method, target, payload),
      ...extraHeaders,
    }
    const res = await fetch(new URL(target, this.baseUrl), { method, headers, body: payload, signal })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: hand back the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text }
  }

  /**
   * Calls an operation of the published contract: `path` is the document's path template, filled
   * from `params`; the body and the reply are typed by the generated types, so a change of contract
   * is a compile error here and in every caller.
   */
  async call<P extends ApiPath, M extends MethodOf<P>>(
    method: M,
    path: P,
    request: RequestOf<P, M>,
  ): Promise<ReplyOf<P, M>> {
    const { params, query, body, headers } = request as {
      params?: Record<string, string | number>
      query?: Record<string, string | number | undefined>
      body?: unknown
      headers?: Record<string, string>
    }
    let target = (path as string).replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(params?.[name] ?? '')),
    )
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(name, String(value))
    }
    if (search.size) target += `?${search}`
    const reply = await this.request(method.toUpperCase(), target, body, headers)
    return reply as ReplyOf<P, M>
  }

  get<T = unknown>(target: string, headers?: Record<string, string>) {
    return this.request<T>('GET', target, undefined, headers)
  }

  post<T = unknown>(target: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', target, body, headers)
  }

  /** Sends a UBL 2.1 Invoice or CreditNote as the body (the invoice endpoints take XML too, CONTRACT 22). */
  postXml<T = unknown>(target: string, xml: string, headers?: Record<string, string>) {
    return this.request<T>('POST', target, xml, { 'content-type': 'application/xml', ...headers })
  }

  private authHeaders(method: string, target: string, body: string | undefined): Record<string, string> {
    switch (this.auth.area) {
      case 'A':
        return signAreaA(this.auth.credentials, { method, target, body: body ?? '' })
      case 'B':
        return signAreaB(this.auth.credentials, { method, target, body: body ?? '' })
      case 'bearer':
        return { authorization: `Bearer ${this.auth.token}`, ...this.auth.headers }
      case 'none':
        return {}
    }
  }
}
