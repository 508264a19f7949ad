import { routes } from '#lib/routes.ts'
import type { ApiError } from './errors.ts'
import type { ReplyKind } from './route.ts'
import { unroutedReply } from './unrouted.ts'

/**
 * What the catch-all answers a request no route takes, from the whole route table (lib/routes.ts), as
 * the local server and the tests run it from the sources.
 *
 * The catch-all's Lambda bundle takes ./route-lookup-bundled.ts in this module's place (an esbuild
 * alias, routeLookupBundling() in infra/constructs/api-function.ts), holding the table's methods and
 * paths as data, written when the bundle is built: the declarations and their schemas are not
 * carried and built at every cold start. The factory imports this module by its `#lib/` name, the
 * name the alias replaces.
 */
export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  return unroutedReply(routes, method, path)
}
