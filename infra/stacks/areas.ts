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
  'events',
  'payments',
  'merchant',
  'notifications',
] as const
export type AreaStackName = (typeof AREA_STACKS)[number]

/** The area stack an endpoint deploys in. The one place this is decided for routes. */
export function stackOf(route: Pick<Route, 'stack' | 'functionId'>): AreaStackName {
  // The endpoint's declaration names it (lib/service/endpoints); only the catch-all lives in the edge stack.
  if (route.stack === 'edge') throw new Error(`${route.functionId} is not an area stack's endpoint`)
  return route.stack
}

/** The area stack of each asynchronous consumer (lib/service/consumers.ts, and the indexer and reconciliation). */
const CONSUMER_STACKS: Record<string, AreaStackName> = {
  'history-indexer': 'payments',
  'reconcile-daily': 'payments',
  'outbox-sender': 'notifications',
  'webhook-fan-out': 'events',
  'webhook-deliver': 'events',
  'batch-worker': 'events',
}

/** The area stack a consumer (by functionId) deploys in. The one place this is decided for consumers. */
export function stackOfConsumer(functionId: string): AreaStackName {
  const stack = CONSUMER_STACKS[functionId]
  if (!stack) throw new Error(`consumer ${functionId} has no area stack: add it to infra/stacks/areas.ts`)
  return stack
}

/** `payments` -> `Payments`, for stack names. */
export const stackTitle = (name: AreaStackName): string => name.charAt(0).toUpperCase() + name.slice(1)
