import type { ApiError } from '#lib/platform/http/errors.ts'
import { unroutedReply } from '#lib/platform/http/unrouted.ts'
import type { ReplyKind, Route } from '#lib/platform/http/route.ts'

/**
 * The catch-all's route table in its Lambda bundle (see ./route-table.ts, whose place it takes):
 * every route's method and path, defined by the bundler (esbuild `define`, routeLookupBundling() in
 * infra/constructs/api-function.ts) from the route table: never written here.
 */
declare const ROUTE_TABLE: readonly Pick<Route, 'method' | 'path'>[]

export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  return unroutedReply(ROUTE_TABLE, method, path)
}
