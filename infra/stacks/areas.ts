import type { Route } from '#lib/service/routes.ts'

/**
 * The area stacks of a stage (infra/stage.ts): each holds its endpoints' functions, their routes on
 * the edge stack's HTTP API, their alarms and the consumers that belong to the area. Each must stay
 * under 300 of CloudFormation's 500 resources per template (CONTRACT section 13; test/infra/stacks.test.ts
 * asserts it): an endpoint costs about 10 (function, role, policy, log group, three alarms, the
 * integration, and a route and an invoke permission per route key).
 *
 * - `invoicing`: Area A's invoices, IRNs, QR codes, invoice numbers, TIN checks, lifecycle, health.
 * - `reference`: what integrators read before they call: the reference lists, the public keys, the
 *   OpenAPI document and docs page. Apart from invoicing because together they would hold about 320.
 * - `exchange`: the authority's exchange routes that the interface lacks (CONTRACT 17): parties,
 *   the entity, the exchange lookups, receipt confirmation and the buyer's inbox. Apart from
 *   invoicing, which with them would pass 300.
 * - `events`: webhook subscriptions, batches and self-service API keys (the business's ADMIN
 *   endpoints), with the webhook fan-out, delivery and batch worker.
 * - `payments`: Area B, the merchant history indexer that follows its transfers, and the daily
 *   reconciliation of the ledger.
 * - `merchant`: Area C.
 * - `notifications`: Area D and the outbox sender.
 */
export const AREA_STACKS = [
  'invoicing',
  'reference',
  'exchange',
  'events',
  'payments',
  'merchant',
  'notifications',
] as const
export type AreaStackName = (typeof AREA_STACKS)[number]

/** The area stack an endpoint deploys in (a consumer's is its declaration's `stack`). */
export function stackOf(route: Pick<Route, 'stack' | 'functionId'>): AreaStackName {
  // The endpoint's declaration names it (lib/service/endpoints); only the catch-all lives in the edge stack.
  if (route.stack === 'edge') throw new Error(`${route.functionId} is not an area stack's endpoint`)
  return route.stack
}

/** `payments` -> `Payments`, for stack names. */
export const stackTitle = (name: AreaStackName): string => name.charAt(0).toUpperCase() + name.slice(1)
