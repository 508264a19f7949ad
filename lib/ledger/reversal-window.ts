/**
 * How long after a transfer it may be reversed (CONTRACT 24: 30 days, a setting). A deployed stage
 * sets it from its settings' `ledger.reversalWindowDays` (infra/stages/<stage>.json) as
 * REVERSAL_WINDOW_DAYS; locally and in tests, where the stage sets none, it is the contract's 30.
 */
export const DEFAULT_REVERSAL_WINDOW_DAYS = 30
export const MAX_REVERSAL_WINDOW_DAYS = 400

export function reversalWindowDays(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.REVERSAL_WINDOW_DAYS ?? DEFAULT_REVERSAL_WINDOW_DAYS)
  return Number.isInteger(days) && days >= 1 && days <= MAX_REVERSAL_WINDOW_DAYS
    ? days
    : DEFAULT_REVERSAL_WINDOW_DAYS
}
