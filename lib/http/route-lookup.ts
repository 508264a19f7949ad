/**
 * How the handler factory finds the route a request came in on, and what it answers when none
 * matches: here, from the whole route table (lib/routes.ts), as the local server, the tests and the
 * catch-all function need it.
 *
 * A Lambda bundle of a function that serves routes takes ./route-lookup-bundled.ts in this module's
 * place (an esbuild alias, routeLookupBundling() in infra/constructs/api-function.ts), holding only
 * the routes of its own handler module, taken from lib/routes.ts when the bundle is built: API Gateway
 * sends a function nothing else, and the whole table is not carried and built at every cold start.
 * The factory imports this module by its `#lib/` name, the name the alias replaces.
 */
export { findRoute } from '#lib/routes.ts'
export { resolveUnrouted } from './unrouted.ts'
