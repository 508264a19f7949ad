import { toHundredths } from '#lib/platform/money.ts'

/**
 * An invoice amount in integer kobo, from the JSON number's own decimal form (lib/platform/money.ts,
 * never binary floating point multiplication: 0.29 * 100 is 28.999999999999996 in a double), rounded
 * half up to 2 decimals; below zero counts as nothing. Kobo integers add exactly while they are safe
 * integers, which holds for every amount a JSON number carries exactly to two decimals.
 */
export function amountKobo(amount: unknown): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return 0
  const kobo = toHundredths(amount)
  return kobo > 0 ? kobo : 0
}
