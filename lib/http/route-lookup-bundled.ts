import type { ApiError } from './errors.ts'
import type { ReplyKind, Route } from './route.ts'
import { unroutedReply } from './unrouted.ts'

/**
 * The catch-all's lookup in a Lambda bundle (see ./route-lookup.ts, whose place it takes): every
 * route's method and path, defined by the bundler (esbuild `define`, routeLookupBundling() in
 * infra/constructs/api-function.ts) from the route table: never written here. A routed function's
 * bundle gets an empty table: it never answers for another route (lib/http/factory.ts).
 */
declare const ROUTE_TABLE: readonly Pick<Route, 'method' | 'path'>[]

export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  return unroutedReply(ROUTE_TABLE, method, path)
}
