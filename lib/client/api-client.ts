import { type AreaACredentials, type AreaBCredentials, signAreaA, signAreaB } from './signing.ts'

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
  ): Promise<ClientReply<T>> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...this.authHeaders(method, target, payload),
      ...extraHeaders,
    }
    const res = await fetch(new URL(target, this.baseUrl), { method, headers, body: payload })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: hand back the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text }
  }

  get<T = unknown>(target: string, headers?: Record<string, string>) {
    return this.request<T>('GET', target, undefined, headers)
  }

  post<T = unknown>(target: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', target, body, headers)
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
