import type { ReplyKind, Route } from '#lib/routes.ts'
import type { ApiError } from './errors.ts'

/**
 * The route lookup of a Lambda bundle (see ./route-lookup.ts, whose place it takes): the routes its
 * handler module serves, by routeKey. BUNDLED_ROUTES is defined by the bundler (esbuild `define`,
 * routeLookupBundling() in infra/constructs/api-function.ts) from lib/routes.ts: never written here.
 */
declare const BUNDLED_ROUTES: Readonly<Record<string, Route>>

export function findRoute(key: string): Route | undefined {
  return Object.hasOwn(BUNDLED_ROUTES, key) ? BUNDLED_ROUTES[key] : undefined
}

/**
 * API Gateway invokes a function only for its own routes (anything else goes to the catch-all, which
 * keeps the whole table): another route reaching this one is a build mistake, a logged 500.
 */
export function resolveUnrouted(method: string, path: string): { error: ApiError; reply: ReplyKind } {
  throw new Error(
    `${method} ${path} reached a function built to serve only ${Object.keys(BUNDLED_ROUTES).join(', ')}`,
  )
}
