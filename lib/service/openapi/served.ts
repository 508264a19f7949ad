/**
 * The document as served: the committed openapi.json with `servers` set to the URL it was fetched
 * from (CONTRACT section 10), so a client generated from it, or the docs page's "try it", talks to the
 * deployment that served it. API Gateway sends X-Forwarded-Proto; the local server does not (http).
 */
export function originOf(headers: Record<string, string | undefined>, domainName?: string): string {
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim() || 'http'
  return `${proto}://${headers.host ?? domainName ?? 'localhost'}`
}

export function servedDocument<D extends object>(document: D, origin: string): D & { servers: unknown[] } {
  return { ...document, servers: [{ url: origin, description: 'The deployment that served this document' }] }
}
