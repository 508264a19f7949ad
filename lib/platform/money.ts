/**
 * Amounts travel as JSON numbers in naira with at most 2 decimals and are stored as integer kobo.
 * The conversion goes through the number's shortest decimal form (what JSON.parse read), never
 * through binary floating point multiplication: 0.29 * 100 is 28.999999999999996 in a double.
 *
 * That form is read exactly into an integer and a power of ten (decimalOf) and the arithmetic is
 * BigInt's, so these few conversions need no decimal library in the functions that only move or show
 * money (decimal.js is 31.5 KB of a bundle; the invoice rules, lib/invoice/rules.ts, keep it). Each
 * gives what decimal.js gave (ROUND_HALF_UP: half away from zero), which
 * test/unit/platform/money.test.ts checks against decimal.js on any finite number.
 */

/** The largest amount accepted: keeps every balance a safe integer in kobo with room to spare. */
export const MAX_AMOUNT_NAIRA = 1_000_000_000_000

export type AmountProblem = 'not-a-number' | 'not-positive' | 'too-many-decimals' | 'too-large'

/** A finite number's shortest decimal form, exactly: (-1 if negative) x digits x 10^-scale. */
interface DecimalForm {
  negative: boolean
  digits: bigint
  scale: number
}

function decimalOf(value: number): DecimalForm {
  // String() gives the shortest form that reads back as the same number: `-0.29`, `1e-7`, `1.5e+21`.
  const [mantissa = '', exponent = '0'] = String(value).split('e')
  const negative = mantissa.startsWith('-')
  const [whole = '', fraction = ''] = (negative ? mantissa.slice(1) : mantissa).split('.')
  return { negative, digits: BigInt(whole + fraction), scale: fraction.length - Number(exponent) }
}

/** Its magnitude in hundredths, rounded half up (half away from zero, as decimal.js ROUND_HALF_UP). */
function hundredths({ digits, scale }: DecimalForm): bigint {
  if (scale <= 2) return digits * 10n ** BigInt(2 - scale)
  const divisor = 10n ** BigInt(scale - 2)
  const rest = digits % divisor
  return digits / divisor + (rest * 2n >= divisor ? 1n : 0n)
}

/** A decimal form as a fixed two-decimal string (a negative one rounded to zero stays `-0.00`). */
function fixed2(form: DecimalForm): string {
  const text = hundredths(form).toString().padStart(3, '0')
  return `${form.negative ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`
}

/** The same decimal form divided by 100 (kobo to naira), exactly. */
const perHundred = (form: DecimalForm): DecimalForm => ({ ...form, scale: form.scale + 2 })

/** Integer kobo for a valid amount, or the reason it is not one. */
export function toKobo(amount: unknown): { kobo: number } | { problem: AmountProblem } {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { problem: 'not-a-number' }
  const form = decimalOf(amount)
  if (form.negative || form.digits === 0n) return { problem: 'not-positive' }
  // The shortest form has no trailing zeros after the point: its scale is its decimal places.
  if (form.scale > 2) return { problem: 'too-many-decimals' }
  const kobo = hundredths(form)
  if (kobo > BigInt(MAX_AMOUNT_NAIRA) * 100n) return { problem: 'too-large' }
  return { kobo: Number(kobo) }
}

/**
 * A number's value in hundredths, rounded half up to 2 decimals, its sign kept (an amount in naira to
 * kobo: lib/invoice/amounts.ts).
 */
export function toHundredths(value: number): number {
  const form = decimalOf(value)
  const magnitude = Number(hundredths(form))
  return form.negative ? -magnitude : magnitude
}

/** Kobo as the JSON number in naira the interface sends (exact for any 2-decimal value). */
export function koboToNaira(kobo: number): number {
  // Zero keeps its sign (-0 / 100 is -0, as decimal.js has it; String(-0) has none), NaN and
  // Infinity stay themselves.
  if (kobo === 0 || !Number.isFinite(kobo)) return kobo / 100
  const { negative, digits, scale } = perHundred(decimalOf(kobo))
  // The exact decimal read as a number: the double nearest to it, as decimal.js's toNumber gives.
  return Number(`${negative ? '-' : ''}${digits}e${-scale}`)
}

/** Kobo as a fixed two-decimal string, e.g. `1500.00` (templates, logs). */
export function formatNaira(kobo: number): string {
  return Number.isFinite(kobo) ? fixed2(perHundred(decimalOf(kobo))) : String(kobo)
}

/** An amount in naira as a fixed two-decimal string from its own decimal form, rounded half up (CSV). */
export function twoDecimals(naira: number): string {
  return Number.isFinite(naira) ? fixed2(decimalOf(naira)) : String(naira)
}
