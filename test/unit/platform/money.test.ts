import { Decimal } from 'decimal.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { amountKobo } from '#lib/invoice/amounts.ts'
import {
  formatNaira,
  koboToNaira,
  MAX_AMOUNT_NAIRA,
  toHundredths,
  toKobo,
  twoDecimals,
} from '#lib/platform/money.ts'

/**
 * The money conversions read a number's shortest decimal form exactly and do BigInt arithmetic
 * (lib/platform/money.ts) instead of decimal.js, which they replaced in the bundles that only move or
 * show money. Each must give what decimal.js gave: these are the decimal.js versions, compared on
 * any finite number, on amounts of two decimals, on kobo, and on the edges (zero, its sign, halves).
 */
const viaDecimal = {
  toKobo(amount: number) {
    if (!Number.isFinite(amount)) return { problem: 'not-a-number' }
    const value = new Decimal(String(amount))
    if (value.lte(0)) return { problem: 'not-positive' }
    if (value.decimalPlaces() > 2) return { problem: 'too-many-decimals' }
    if (value.gt(MAX_AMOUNT_NAIRA)) return { problem: 'too-large' }
    return { kobo: value.times(100).toNumber() }
  },
  amountKobo(amount: number) {
    if (!Number.isFinite(amount)) return 0
    const value = new Decimal(String(amount)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
    return value.lte(0) ? 0 : value.times(100).toNumber()
  },
  koboToNaira: (kobo: number) => new Decimal(kobo).div(100).toNumber(),
  formatNaira: (kobo: number) => new Decimal(kobo).div(100).toFixed(2),
  twoDecimals: (naira: number) => new Decimal(String(naira)).toFixed(2),
}

const anyNumber = fc.double({ noNaN: false })
const twoDecimalAmount = fc
  .integer({ min: -(MAX_AMOUNT_NAIRA * 100 + 5), max: MAX_AMOUNT_NAIRA * 100 + 5 })
  .map((kobo) => kobo / 100)
const kobo = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })
const edges = [
  0,
  -0,
  0.005,
  -0.005,
  0.015,
  1.005,
  2.675,
  0.29,
  -1e-7,
  1e-7,
  5e-324,
  1e21,
  1.5e300,
  1e12,
  1e12 + 0.01,
]

describe('the money conversions without decimal.js', () => {
  it.each([
    ['toKobo', toKobo],
    ['amountKobo', amountKobo],
    ['twoDecimals', twoDecimals],
  ] as const)('%s gives what decimal.js gave', (name, own) => {
    const check = (n: number) => expect(own(n), String(n)).toStrictEqual(viaDecimal[name](n))
    for (const n of edges) check(n)
    fc.assert(
      fc.property(anyNumber, (n) => {
        check(n)
      }),
      { numRuns: 5000 },
    )
    fc.assert(
      fc.property(twoDecimalAmount, (n) => {
        check(n)
      }),
      { numRuns: 5000 },
    )
  })

  it.each([
    ['koboToNaira', koboToNaira],
    ['formatNaira', formatNaira],
  ] as const)('%s gives what decimal.js gave', (name, own) => {
    const check = (n: number) => expect(own(n), String(n)).toStrictEqual(viaDecimal[name](n))
    for (const n of [...edges, -150, 150, 29, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY])
      check(n)
    fc.assert(
      fc.property(kobo, (n) => {
        check(n)
      }),
      { numRuns: 5000 },
    )
    fc.assert(
      fc.property(anyNumber, (n) => {
        check(n)
      }),
      { numRuns: 5000 },
    )
  })

  it('toHundredths rounds half away from zero and keeps the sign', () => {
    expect([0.005, -0.005, 0.004, 1.005, 0.29, 2.675].map(toHundredths)).toEqual([1, -1, 0, 101, 29, 268])
  })
})
