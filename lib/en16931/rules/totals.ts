import { dec, type Dec, fractionDigits, round, round2, sum } from '../decimal.js'
import { booleanOf } from '../from-ubl.js'
import type { Model, TaxCategory, Term } from '../model.js'
import type { Report } from './report.js'

/**
 * The document totals (BG-22), the VAT breakdown (BG-23) and their arithmetic (BR-12 to BR-15,
 * BR-45 to BR-48, BR-CO-10 to BR-CO-17, BR-DEC-*), in decimal with the artefacts' rounding.
 */

const eq = (a: Dec | undefined, b: Dec | undefined) => a !== undefined && b !== undefined && a.eq(b)
const decimals = (term: Term | undefined, rule: string, path: string, report: Report) => {
  if (term) report.check(fractionDigits(term) <= 2, rule, path)
}
const vatCategory = (categories: TaxCategory[]) => categories.find((category) => category.vat)

export function totalRules(model: Model, report: Report): void {
  if (model.totals) monetaryTotals(model, model.totals, report)
  documentTax(model, report)
  breakdown(model, report)
}

/** The document totals (BG-22): BR-12 to BR-15, BR-CO-10 to BR-CO-13, BR-CO-16, BR-DEC-09 to BR-DEC-18. */
function monetaryTotals(model: Model, totals: Totals, report: Report): void {
  const path = totals.path
  report.check(totals.lineExtensionAmount !== undefined, 'BR-12', path)
  report.check(totals.taxExclusiveAmount !== undefined, 'BR-13', path)
  report.check(totals.taxInclusiveAmount !== undefined, 'BR-14', path)
  report.check(totals.payableAmount !== undefined, 'BR-15', path)
  const lineSum = sum(model.lines.map((line) => dec(line.lineExtensionAmount)))
  report.check(eq(dec(totals.lineExtensionAmount), round2(lineSum)), 'BR-CO-10', path)
  const allowances = model.allowanceCharges.filter((charge) => booleanOf(charge.indicator) === false)
  const charges = model.allowanceCharges.filter((charge) => booleanOf(charge.indicator) === true)
  report.check(
    eq(dec(totals.allowanceTotalAmount), round2(sum(allowances.map((charge) => dec(charge.amount))))) ||
      (!totals.allowanceTotalAmount && allowances.length === 0),
    'BR-CO-11',
    path,
  )
  report.check(
    eq(dec(totals.chargeTotalAmount), round2(sum(charges.map((charge) => dec(charge.amount))))) ||
      (!totals.chargeTotalAmount && charges.length === 0),
    'BR-CO-12',
    path,
  )
  report.check(eq(dec(totals.taxExclusiveAmount), exclusiveExpected(totals)), 'BR-CO-13', path)
  report.check(payableHolds(totals), 'BR-CO-16', path)
  decimals(totals.lineExtensionAmount, 'BR-DEC-09', path, report)
  decimals(totals.allowanceTotalAmount, 'BR-DEC-10', path, report)
  decimals(totals.chargeTotalAmount, 'BR-DEC-11', path, report)
  decimals(totals.taxExclusiveAmount, 'BR-DEC-12', path, report)
  decimals(totals.taxInclusiveAmount, 'BR-DEC-14', path, report)
  decimals(totals.prepaidAmount, 'BR-DEC-16', path, report)
  decimals(totals.payableRoundingAmount, 'BR-DEC-17', path, report)
  decimals(totals.payableAmount, 'BR-DEC-18', path, report)
}

/** BR-CO-15: the document currency's tax total, once, adds up with the amount without VAT. */
function documentTax(model: Model, report: Report): void {
  const currency = model.currency
  if (currency) {
    const amounts = model.taxTotals.flatMap((total) =>
      total.taxAmounts.filter((amount) => amount.attributes?.currencyID === currency.value),
    )
    const tax = amounts.length === 1 ? dec(amounts[0]) : undefined
    const exclusive = dec(model.totals?.taxExclusiveAmount)
    report.check(
      amounts.length === 1 &&
        eq(dec(model.totals?.taxInclusiveAmount), tax && exclusive ? round2(exclusive.plus(tax)) : undefined),
      'BR-CO-15',
      model.path,
    )
  }
}

/** The VAT breakdown (BG-23) and the tax total. */
function breakdown(model: Model, report: Report): void {
  for (const total of model.taxTotals) {
    if (total.subtotals.length > 0)
      report.check(
        eq(
          dec(total.taxAmounts[0]),
          round2(sum(total.subtotals.map((subtotal) => dec(subtotal.taxAmount)))),
        ) && total.taxAmounts.length === 1,
        'BR-CO-14',
        total.path,
      )
    for (const subtotal of total.subtotals) {
      const path = subtotal.path
      report.check(subtotal.taxableAmount !== undefined, 'BR-45', path)
      report.check(subtotal.taxAmount !== undefined, 'BR-46', path)
      const category = vatCategory(subtotal.categories)
      report.check(category?.id !== undefined, 'BR-47', path)
      report.check(category?.percent !== undefined || category?.id?.value.trim() === 'O', 'BR-48', path)
      report.check(
        breakdownTaxHolds(category, dec(subtotal.taxableAmount), dec(subtotal.taxAmount)),
        'BR-CO-17',
        path,
      )
      decimals(subtotal.taxableAmount, 'BR-DEC-19', path, report)
      decimals(subtotal.taxAmount, 'BR-DEC-20', path, report)
    }
  }
}

type Totals = NonNullable<Model['totals']>

/** BR-CO-13: the amount without VAT is the lines' less allowances plus charges. */
function exclusiveExpected(totals: Totals): Dec | undefined {
  const lines = dec(totals.lineExtensionAmount)
  const chargeTotal = totals.chargeTotalAmount ? dec(totals.chargeTotalAmount) : undefined
  const allowanceTotal = totals.allowanceTotalAmount ? dec(totals.allowanceTotalAmount) : undefined
  let expected: Dec | undefined
  if (!lines) expected = undefined
  else if (totals.chargeTotalAmount && totals.allowanceTotalAmount)
    expected =
      chargeTotal && allowanceTotal ? round2(lines.plus(chargeTotal).minus(allowanceTotal)) : undefined
  else if (totals.allowanceTotalAmount)
    expected = allowanceTotal ? round2(lines.minus(allowanceTotal)) : undefined
  else if (totals.chargeTotalAmount) expected = chargeTotal ? round2(lines.plus(chargeTotal)) : undefined
  else expected = lines
  return expected
}

/** BR-CO-16: the amount due is the amount with VAT less the prepaid amount, with the rounding amount. */
function payableHolds(totals: Totals): boolean {
  const inclusive = dec(totals.taxInclusiveAmount)
  const prepaid = dec(totals.prepaidAmount)
  const rounding = dec(totals.payableRoundingAmount)
  const payable = dec(totals.payableAmount)
  let holds: boolean
  if (totals.prepaidAmount && !totals.payableRoundingAmount)
    holds = eq(payable, inclusive && prepaid ? round2(inclusive.minus(prepaid)) : undefined)
  else if (!totals.prepaidAmount && !totals.payableRoundingAmount) holds = eq(payable, inclusive)
  else if (totals.prepaidAmount && totals.payableRoundingAmount)
    holds = eq(
      payable && rounding ? round2(payable.minus(rounding)) : undefined,
      inclusive && prepaid ? round2(inclusive.minus(prepaid)) : undefined,
    )
  else holds = eq(payable && rounding ? round2(payable.minus(rounding)) : undefined, inclusive)
  return holds
}

/** BR-CO-17: the VAT amount is the taxable amount times the rate, within 1 (0 when the rate rounds to 0). */
function breakdownTaxHolds(
  category: TaxCategory | undefined,
  taxable: Dec | undefined,
  tax: Dec | undefined,
): boolean {
  const percent = category?.percent ? dec(category.percent) : undefined
  const taxRoundsToZero = tax !== undefined && round(tax).isZero()
  if (!category?.percent) return taxRoundsToZero
  if (!percent) return false
  if (round(percent).isZero()) return taxRoundsToZero
  if (!tax || !taxable) return false
  const expected = round2(taxable.abs().times(percent.div(100)))
  return tax.abs().minus(1).lt(expected) && tax.abs().plus(1).gt(expected)
}
