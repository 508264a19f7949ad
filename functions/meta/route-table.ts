import type { ApiError } from '#lib/platform/http/errors.ts'
import { unroutedReply } from '#lib/platform/http/unrouted.ts'
import type { ReplyKind } from '#lib/platform/http/route.ts'
import { routes } from '#lib/service/routes.ts'

/**
 * What the catch-all answers a request no route takes, from the whole route table (lib/service/routes.ts), as
 * the local server and the tests run it from the sources.
 *
 * The catch-all's Lambda bundle takes ./route-table-bundled.ts in this module's place (an esbuild
 * alias, routeLookupBundling() in infra/constructs/api-function.ts), holding the table's methods and
 * paths as data, written when the bundle is built: the declarations and their schemas are not
 * carried and built at every cold start. ./unrouted.ts imports this module by its `#functions/` name,
 * the name the alias replaces. It lives beside the catch-all, not in lib/platform/http: the table is derived
 * from the declarations, which are built with lib/platform/http.
 */
export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  return unroutedReply(routes, method, path)
}
