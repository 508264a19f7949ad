import { Decimal } from 'decimal.js'
import type { Term } from './model.js'

/**
 * The arithmetic the official artefacts do, in decimal: xs:decimal of a term, XPath's round() (half
 * towards positive infinity: round(2.5) = 3, round(-2.5) = -2) and the `round(x * 10 * 10) div 100`
 * the rules write for two decimals. A value that is not a decimal reads as undefined, and a
 * comparison with it is false, as an XPath comparison with an empty sequence is.
 */

const D = Decimal.clone({ precision: 40 })
export type Dec = Decimal

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

export function dec(term: Term | undefined): Dec | undefined {
  if (!term) return undefined
  const text = term.value.trim()
  return DECIMAL.test(text) ? new D(text) : undefined
}

/** A term compared with a number in XPath (an untyped value is read as a double). */
export function num(term: Term | undefined): number | undefined {
  if (!term) return undefined
  const text = term.value.trim()
  if (text === '') return Number.NaN
  const value = Number(text)
  return Number.isNaN(value) ? Number.NaN : value
}

export const ZERO: Dec = new D(0)

/** XPath round(): to the nearest integer, halves towards positive infinity. */
export function round(value: Dec): Dec {
  return value.toDecimalPlaces(0, Decimal.ROUND_HALF_CEIL)
}

/** `round(value * 10 * 10) div 100`: two decimals as the artefacts round them. */
export function round2(value: Dec): Dec {
  return round(value.times(100)).div(100)
}

export function sum(values: (Dec | undefined)[]): Dec {
  let total: Dec = ZERO
  for (const value of values) if (value) total = total.plus(value)
  return total
}

/** Digits after the decimal point as written (`string-length(substring-after(x, '.'))`). */
export function fractionDigits(term: Term): number {
  const at = term.value.indexOf('.')
  return at < 0 ? 0 : term.value.length - at - 1
}

/** Whether the term is present and not blank (`normalize-space(x) != ''`). */
export const filled = (term: Term | undefined): boolean => term !== undefined && term.value.trim() !== ''
