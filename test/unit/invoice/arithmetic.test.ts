import { Decimal } from 'decimal.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { centsOf, checkRules, divRoundHalfUp, lineCents } from '#lib/invoice/rules.ts'
import type { CodeLists } from '#lib/invoice/code-lists.ts'

/** decimal.js's answer: the reference the integer fast path must always agree with. */
const reference = (n: number) => new Decimal(n).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
const referenceLine = (q: number, p: number, b: number) =>
  new Decimal(q).times(p).div(b).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)

const noLists: CodeLists = {
  invoiceTypes: new Set(),
  currencies: new Set(),
  countries: new Set(),
  states: new Set(),
  lgas: { complete: false, stateOf: new Map() },
  taxCategories: new Set(),
  paymentMeans: new Set(),
  hsCodes: new Set(),
  isicCodes: new Set(),
}

/** The arithmetic findings for one line, and the totals made consistent with `stated`. */
function lineFindings(quantity: number, price: number, base: number, stated: number) {
  const invoice = {
    invoice_line: [
      {
        invoiced_quantity: quantity,
        line_extension_amount: stated,
        price: { price_amount: price, base_quantity: base },
      },
    ],
  }
  return checkRules(invoice, { lists: noLists, serviceId: 'X' }).arithmetic.map((p) => p.code)
}

describe('the integer fast path of the line rule', () => {
  it('reads an amount as exact kobo only when it is a whole number of kobo', () => {
    expect(centsOf(2.675)).toBeUndefined()
    expect(centsOf(0.07)).toBe(7)
    expect(centsOf(-1234.5)).toBe(-123450)
    expect(centsOf(1e12)).toBeUndefined()
  })

  it('agrees with decimal.js on kobo amounts, however they round', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (k) => {
        const v = k / 100
        expect(centsOf(v)! + 0).toBe(reference(v).times(100).toNumber() + 0)
      }),
      { numRuns: 5000 },
    )
  })

  it('agrees with decimal.js on quantity x price / base, rounded half up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: -(10 ** 11), max: 10 ** 11 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (quantity, priceKobo, base) => {
          const price = priceKobo / 100
          const fast = lineCents(quantity, price, base)
          // The fast path may decline (an overflow); when it answers, it is decimal.js's answer.
          // (+ 0 folds -0 into 0: the rule compares with ===, for which they are equal.)
          if (fast !== undefined)
            expect(fast + 0).toBe(referenceLine(quantity, price, base).times(100).toNumber() + 0)
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('rounds exact halves away from zero, as decimal.js ROUND_HALF_UP does', () => {
    expect(divRoundHalfUp(5, 2)).toBe(3)
    expect(divRoundHalfUp(-5, 2)).toBe(-3)
    expect(divRoundHalfUp(7, 3)).toBe(2)
    expect(divRoundHalfUp(2 ** 53, 3)).toBeUndefined()
  })
})

describe('the line rule, in decimal', () => {
  it('rounds half up in decimal where binary floating point would round down (2.675 -> 2.68)', () => {
    // Math.round(2.675 * 100) / 100 is 2.67 in floating point: the rule must say 2.68.
    expect(lineFindings(1, 2.675, 1, 2.68)).toEqual([])
    expect(lineFindings(1, 2.675, 1, 2.67)).toEqual(['NG-CO-01'])
  })

  it('accepts 7 x 100 / 3 as 233.33 and refuses 233.34', () => {
    expect(lineFindings(7, 100, 3, 233.33)).toEqual([])
    expect(lineFindings(7, 100, 3, 233.34)).toEqual(['NG-CO-01'])
  })

  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    const invoice = {
      invoice_line: [{ line_extension_amount: 0.1 }, { line_extension_amount: 0.2 }],
      legal_monetary_total: { line_extension_amount: 0.3 },
    }
    expect(checkRules(invoice, { lists: noLists, serviceId: 'X' }).arithmetic).toEqual([])
  })

  it('gives the same findings as decimal.js for amounts with more than 2 decimals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 10 ** 7 }),
        fc.integer({ min: 1, max: 7 }),
        (q, milli, base) => {
          const price = milli / 1000
          const expected = referenceLine(q, price, base).toNumber()
          expect(lineFindings(q, price, base, expected)).toEqual([])
        },
      ),
      { numRuns: 2000 },
    )
  })
})
