import type { ApiError } from '#lib/http/errors.ts'
import { unroutedReply } from '#lib/http/unrouted.ts'
import type { ReplyKind } from '#lib/route.ts'
import { routes } from '#lib/routes.ts'

/**
 * What the catch-all answers a request no route takes, from the whole route table (lib/routes.ts), as
 * the local server and the tests run it from the sources.
 *
 * The catch-all's Lambda bundle takes ./route-table-bundled.ts in this module's place (an esbuild
 * alias, routeLookupBundling() in infra/constructs/api-function.ts), holding the table's methods and
 * paths as data, written when the bundle is built: the declarations and their schemas are not
 * carried and built at every cold start. ./unrouted.ts imports this module by its `#functions/` name,
 * the name the alias replaces. It lives beside the catch-all, not in lib/http: the table is derived
 * from the declarations, which are built with lib/http.
 */
export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  return unroutedReply(routes, method, path)
}
