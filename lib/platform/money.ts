import { Decimal } from 'decimal.js'

/**
 * Amounts travel as JSON numbers in naira with at most 2 decimals and are stored as integer kobo.
 * The conversion goes through the number's shortest decimal form (what JSON.parse read), never
 * through binary floating point multiplication: 0.29 * 100 is 28.999999999999996 in a double.
 */

/** The largest amount accepted: keeps every balance a safe integer in kobo with room to spare. */
export const MAX_AMOUNT_NAIRA = 1_000_000_000_000

export type AmountProblem = 'not-a-number' | 'not-positive' | 'too-many-decimals' | 'too-large'

/** Integer kobo for a valid amount, or the reason it is not one. */
export function toKobo(amount: unknown): { kobo: number } | { problem: AmountProblem } {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { problem: 'not-a-number' }
  const value = new Decimal(String(amount))
  if (value.lte(0)) return { problem: 'not-positive' }
  if (value.decimalPlaces() > 2) return { problem: 'too-many-decimals' }
  if (value.gt(MAX_AMOUNT_NAIRA)) return { problem: 'too-large' }
  return { kobo: value.times(100).toNumber() }
}

/** Kobo as the JSON number in naira the interface sends (exact for any 2-decimal value). */
export function koboToNaira(kobo: number): number {
  return new Decimal(kobo).div(100).toNumber()
}

/** Kobo as a fixed two-decimal string, e.g. `1500.00` (templates, logs). */
export function formatNaira(kobo: number): string {
  return new Decimal(kobo).div(100).toFixed(2)
}
