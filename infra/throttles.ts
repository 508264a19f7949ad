import { type Route, routeKey } from '#lib/service/routes.ts'
import type { StageSettings, ThrottleGroup } from './settings.ts'

/**
 * The throttle group of a route (docs/capacity.md, "Stage throttles"): what the stage's settings
 * (infra/stages/<stage>.json `throttles`) limit it to, per route, in API Gateway.
 * - `signing`: invoice signing, the capacity plan's 400 signs/s;
 * - `transfers`: Area B, the switch's 2,000 transfers/s;
 * - `admin`: Area D and the Area A routes only an ADMIN key may call (keys, webhooks, events, test clock);
 * - `reads`: every other GET (Area A reads, Area C, the public documents);
 * - `invoices`: every other Area A write or check (validate, IRN, QR, transmit, update, batches, parties).
 * `unrouted` is the `$default` catch-all's (the stage's default route settings).
 */
export function throttleGroupOf(route: Route): Exclude<ThrottleGroup, 'unrouted'> {
  if (route.functionId === 'app-invoice-sign') return 'signing'
  if (route.area === 'B') return 'transfers'
  if (route.area === 'D' || (route.roles.length === 1 && route.roles[0] === 'ADMIN')) return 'admin'
  if (route.method === 'GET') return 'reads'
  return 'invoices'
}

/** One throttle as API Gateway's stage takes it (AWS::ApiGatewayV2::Stage RouteSettings). */
export interface RouteThrottle {
  ThrottlingRateLimit: number
  ThrottlingBurstLimit: number
}

const asRouteSetting = ({
  rateLimit,
  burstLimit,
}: StageSettings['throttles'][ThrottleGroup]): RouteThrottle => ({
  ThrottlingRateLimit: rateLimit,
  ThrottlingBurstLimit: burstLimit,
})

/** The stage's RouteSettings: each route of the table under its group's throttle, by route key. */
export function routeThrottles(
  routes: readonly Route[],
  throttles: StageSettings['throttles'],
): Record<string, RouteThrottle> {
  return Object.fromEntries(routes.map((r) => [routeKey(r), asRouteSetting(throttles[throttleGroupOf(r)])]))
}
