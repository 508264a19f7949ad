import { ApiError } from './errors.ts'
import { nearestRoute, quotedPath } from './nearest-route.ts'
import type { ReplyKind, Route } from '#lib/platform/http/route.ts'

/** The area a path belongs to, so an unknown path still gets that area's error record. */
function replyKindForPath(path: string): ReplyKind {
  if (path.startsWith('/api/v1/transactions/')) return 'bank'
  if (path.startsWith('/api/v1/merchant/')) return 'merchant'
  if (path.startsWith('/notification/')) return 'notification'
  return 'record'
}

/** Matches an API Gateway route path (with `{param}` segments) against a concrete path. */
export function pathMatches(routePath: string, path: string): boolean {
  const a = routePath.split('/')
  const b = path.split('/')
  return a.length === b.length && a.every((seg, i) => (seg.startsWith('{') ? b[i] !== '' : seg === b[i]))
}

/**
 * A request no route takes: 405 with Allow when the path exists under another method, else 404.
 * In AWS the API's `$default` route sends these here, so callers get our record, not API Gateway's.
 */
export function unroutedReply(
  routes: readonly Pick<Route, 'method' | 'path'>[],
  method: string,
  path: string,
): { error: ApiError; reply: ReplyKind } {
  const SERVED_METHODS: ReadonlySet<string> = new Set(routes.map((r) => r.method))
  const reply = replyKindForPath(path)
  const allowed: string[] = routes.filter((r) => pathMatches(r.path, path)).map((r) => r.method)
  // A method no route uses (PROPFIND, TRACE, HEAD...) is 405 on any path (CONTRACT section 9).
  if (!allowed.length && !SERVED_METHODS.has(method)) allowed.push(...SERVED_METHODS)
  if (allowed.length) {
    const allow = [...new Set(allowed)].join(', ')
    return {
      reply,
      error: new ApiError(405, `${method} is not allowed on ${quotedPath(path)}; allowed: ${allow}`, {
        headers: { allow },
        code: 'METHOD_NOT_ALLOWED',
      }),
    }
  }
  // Under /api/ a path is almost always a served one misremembered (or the authority's): name one.
  const near = path === '/api' || path.startsWith('/api/') ? nearestRoute(routes, method, path) : undefined
  const hint = near ? `the nearest served path is ${near.method} ${near.path}; ` : ''
  const message = `No endpoint ${method} ${quotedPath(path)}: ${hint}check the path and version against the API reference (/api/docs)`
  return {
    reply,
    error: new ApiError(404, message, { code: 'ROUTE_NOT_FOUND' }),
  }
}
