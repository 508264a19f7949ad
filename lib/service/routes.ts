import { declarations, unrouted } from '#lib/service/endpoints/index.ts'
import { type Endpoint, handlerOf, routesOf } from '#lib/platform/http/endpoint.ts'
import { type Route, routeKey } from '#lib/platform/http/route.ts'

/**
 * The route table, derived from the endpoint declarations (lib/service/endpoints): never written by hand.
 * The stacks deploy one Lambda function per declaration and one HTTP API route per entry; the local
 * server routes requests with it. No function's runtime code imports it: a handler finds its route
 * among its own declaration's (lib/platform/http/factory.ts), and the catch-all's bundle carries the table's
 * methods and paths as data (functions/meta/route-table-bundled.ts).
 */

export type {
  Area,
  AuthScheme,
  ReplyKind,
  Role,
  Route,
  ModeSecret,
  ServiceSecret,
} from '#lib/platform/http/route.ts'
export { routeKey, SECRET_ENV, secretOfMode } from '#lib/platform/http/route.ts'

/** Area A routes of two-version endpoints come first (v1, then v2), then the rest, in declaration order. */
const order = (route: Route): number => {
  const version = /^\/api\/(v[12])\//.exec(route.path)?.[1]
  const twoVersions = declarationOf(route.functionId)?.versions?.length === 2
  if (!twoVersions) return 2
  return version === 'v1' ? 0 : 1
}

const byFunction = new Map<string, Endpoint>(declarations.map((d) => [d.functionId, d]))

/** The declaration of a function (the catch-all's included). */
export function declarationOf(functionId: string): Endpoint | undefined {
  return functionId === unrouted.functionId ? unrouted : byFunction.get(functionId)
}

export const routes: readonly Route[] = declarations
  .flatMap(routesOf)
  .map((route, index) => ({ route, index }))
  .sort((a, b) => order(a.route) - order(b.route) || a.index - b.index)
  .map(({ route }) => route)

const byKey = new Map(routes.map((r) => [routeKey(r), r]))

export function findRoute(key: string): Route | undefined {
  return byKey.get(key)
}

/** The functions to deploy: one per functionId, with the routes it serves. */
export function functionsOf(table: readonly Route[] = routes): Map<string, Route[]> {
  const functions = new Map<string, Route[]>()
  for (const r of table) {
    const list = functions.get(r.functionId) ?? []
    list.push(r)
    functions.set(r.functionId, list)
  }
  return functions
}

/** Takes every request no route matches (API Gateway's `$default` route; the local server's fallback). */
export const UNROUTED = { functionId: unrouted.functionId, handler: handlerOf(unrouted) } as const

// In a module of their own, so a reference list's function can name the lists without the table.
export { REFERENCE_LISTS } from '#lib/reference/lists.ts'
