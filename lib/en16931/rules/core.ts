import { filled, num } from '../decimal.js'
import type { AllowanceCharge, Line, Model, Party, Period } from '../model.js'
import { booleanOf } from '../from-ubl.js'
import { NOTE_SUBJECT_CODES, VAT_PREFIXES } from '../code-lists.js'
import type { Report } from './report.js'

/**
 * The core rules (BR-01 to BR-65) and the conditions of BR-CO that are not arithmetic: each as the
 * official UBL binding words it (EN16931-UBL-model.sch), on the context it names.
 */

export function coreRules(model: Model, report: Report): void {
  documentRules(model, report)
  partyRules(model, report)
  paymentRules(model, report)
  for (const period of model.periods) invoicePeriod(period, report)
  for (const charge of model.allowanceCharges) documentAllowanceCharge(charge, report)
  for (const line of model.lines) lineRules(line, report)
}

function documentRules(model: Model, report: Report): void {
  const root = model.path
  const seller = model.seller?.party
  const buyer = model.buyer?.party
  report.check(filled(model.customizationId), 'BR-01', root)
  report.check(filled(model.id), 'BR-02', root)
  report.check(filled(model.issueDate), 'BR-03', root)
  report.check(filled(model.typeCode), 'BR-04', root)
  report.check(filled(model.currency), 'BR-05', root)
  report.check(filled(seller?.registrationName), 'BR-06', root)
  report.check(filled(buyer?.registrationName), 'BR-07', root)
  report.check(seller?.address !== undefined, 'BR-08', root)
  report.check(buyer?.address !== undefined, 'BR-10', root)
  report.check(model.lines.length > 0, 'BR-16', root)
  const taxAmountCurrencies = new Set(
    model.taxTotals.flatMap((total) => total.taxAmounts.map((amount) => amount.attributes?.currencyID)),
  )
  report.check(
    model.taxCurrencies.every((currency) => taxAmountCurrencies.has(currency.value)),
    'BR-53',
    root,
  )
  const descriptionCode = model.periods.some((period) => period.descriptionCode !== undefined)
  report.check(!(model.taxPointDate !== undefined && descriptionCode), 'BR-CO-03', root)
  report.check(
    model.taxTotals.some((total) => total.subtotals.length > 0),
    'BR-CO-18',
    root,
  )
  splitPayment(model, report)
}

/** The seller, buyer, payee and tax representative (BR-06 to BR-11, BR-17 to BR-20, BR-56, BR-62, BR-63, BR-CO-09, BR-CO-26). */
function partyRules(model: Model, report: Report): void {
  const seller = model.seller?.party
  const buyer = model.buyer?.party
  // Seller (cac:AccountingSupplierParty) and its addresses.
  if (model.seller) {
    const party = model.seller.party
    report.check(
      (party?.taxSchemes ?? []).some((scheme) => scheme.vat && scheme.companyId !== undefined) ||
        (party?.identifiers ?? []).some((id) => id.attributes?.schemeID !== 'SEPA') ||
        (party?.legalCompanyIds.length ?? 0) > 0,
      'BR-CO-26',
      model.seller.path,
    )
  }
  if (seller?.endpoint)
    report.check(seller.endpoint.attributes?.schemeID !== undefined, 'BR-62', seller.endpoint.path)
  if (buyer?.endpoint)
    report.check(buyer.endpoint.attributes?.schemeID !== undefined, 'BR-63', buyer.endpoint.path)
  if (seller?.address) report.check(filled(seller.address.country), 'BR-09', seller.address.path)
  if (buyer?.address) report.check(filled(buyer.address.country), 'BR-11', buyer.address.path)

  if (model.payee) payee(model.payee, seller, report)
  const representative = model.taxRepresentative
  if (representative) {
    report.check(filled(representative.names[0]), 'BR-18', representative.path)
    report.check(representative.address !== undefined, 'BR-19', representative.path)
    report.check(
      representative.taxSchemes.some((scheme) => scheme.vat && scheme.companyId !== undefined),
      'BR-56',
      representative.path,
    )
    if (representative.address)
      report.check(filled(representative.address.country), 'BR-20', representative.address.path)
  }
  for (const party of [seller, buyer, representative, model.payee])
    for (const scheme of party?.taxSchemes ?? [])
      if (scheme.vat)
        report.check(
          VAT_PREFIX_TEXT.includes((scheme.companyId?.value ?? '').slice(0, 2)),
          'BR-CO-09',
          scheme.path,
        )
}

/** Delivery, payment instructions, references and notes. */
function paymentRules(model: Model, report: Report): void {
  for (const delivery of model.deliveries)
    if (delivery.address) report.check(delivery.address.country !== undefined, 'BR-57', delivery.address.path)
  for (const means of model.paymentMeans) {
    report.check(means.code !== undefined, 'BR-49', means.path)
    const code = means.code?.value.trim()
    report.check(
      (means.accounts.some((account) => account.id !== undefined) && (code === '30' || code === '58')) ||
        (code !== '30' && code !== '58'),
      'BR-61',
      means.path,
    )
    if (means.code?.value === '30' || means.code?.value === '58')
      for (const account of means.accounts) report.check(filled(account.id), 'BR-50', account.path)
    for (const card of means.cardNumbers)
      report.check(card.value.trim().replace(/\s+/g, ' ').length <= 10, 'BR-51', card.path)
  }
  for (const document of model.additionalDocuments) report.check(filled(document.id), 'BR-52', document.path)
  for (const reference of model.precedingInvoices)
    report.check(reference.id !== undefined, 'BR-55', reference.path)
  for (const note of model.notes) noteSubject(note.value, note.path, report)
}

/** An invoice line (BG-25): BR-21 to BR-28, BR-CO-04, BR-DEC-23, its period, allowances and charges, item attributes. */
function lineRules(line: Line, report: Report): void {
  report.check(filled(line.id), 'BR-21', line.path)
  report.check(line.quantity !== undefined, 'BR-22', line.path)
  report.check(line.quantity?.attributes?.unitCode !== undefined, 'BR-23', line.path)
  report.check(line.lineExtensionAmount !== undefined, 'BR-24', line.path)
  report.check(filled(line.itemName), 'BR-25', line.path)
  report.check(line.priceAmount !== undefined, 'BR-26', line.path)
  const price = num(line.priceAmount)
  report.check(price !== undefined && price >= 0, 'BR-27', line.path)
  const bases = line.priceAllowanceCharges.flatMap((charge) =>
    charge.baseAmount ? [num(charge.baseAmount)] : [],
  )
  report.check(
    bases.length === 0 || bases.some((base) => base !== undefined && base >= 0),
    'BR-28',
    line.path,
  )
  report.check(
    line.classifiedTaxCategories.some((category) => category.vat && category.id !== undefined),
    'BR-CO-04',
    line.path,
  )
  if (line.lineExtensionAmount) decimals(line.lineExtensionAmount, 'BR-DEC-23', line.path, report)
  for (const period of line.periods) linePeriod(period, report)
  for (const charge of line.allowanceCharges) lineAllowanceCharge(charge, report)
  for (const property of line.properties)
    report.check(property.name !== undefined && property.value !== undefined, 'BR-54', property.path)
  for (const id of line.standardIds) report.check(id.attributes?.schemeID !== undefined, 'BR-64', id.path)
  for (const code of line.classificationCodes)
    report.check(code.attributes?.listID !== undefined, 'BR-65', code.path)
}

/** BR-CO-09 reads the prefix with contains() over the list written with spaces: a substring test. */
const VAT_PREFIX_TEXT = ` ${[...VAT_PREFIXES].join(' ')} `

function decimals(term: { value: string } | undefined, rule: string, path: string, report: Report): void {
  if (!term) return
  const at = term.value.indexOf('.')
  report.check(at < 0 || term.value.length - at - 1 <= 2, rule, path)
}

function payee(party: Party, seller: Party | undefined, report: Report): void {
  const sellerNames = new Set((seller?.names ?? []).map((name) => name.value))
  const sellerIds = new Set((seller?.identifiers ?? []).map((id) => id.value))
  report.check(
    party.names.length > 0 &&
      !party.names.some((name) => sellerNames.has(name.value)) &&
      !party.identifiers.some((id) => sellerIds.has(id.value)),
    'BR-17',
    party.path,
  )
}

function periodHolds(period: Period): boolean {
  if (!period.start || !period.end) return true
  return period.end.value.trim() >= period.start.value.trim()
}

function invoicePeriod(period: Period, report: Report): void {
  report.check(periodHolds(period), 'BR-29', period.path)
  report.check(
    period.start !== undefined || period.end !== undefined || period.descriptionCode !== undefined,
    'BR-CO-19',
    period.path,
  )
}

function linePeriod(period: Period, report: Report): void {
  report.check(periodHolds(period), 'BR-30', period.path)
  report.check(period.start !== undefined || period.end !== undefined, 'BR-CO-20', period.path)
}

const hasReason = (charge: AllowanceCharge) => charge.reason !== undefined || charge.reasonCode !== undefined
const hasVatCategory = (charge: AllowanceCharge) =>
  charge.taxCategories.some((category) => category.vat && category.id !== undefined)

function documentAllowanceCharge(charge: AllowanceCharge, report: Report): void {
  const indicator = booleanOf(charge.indicator)
  if (indicator === undefined) return
  const [amount, category, reason, coReason, decAmount, decBase] =
    indicator === false
      ? ['BR-31', 'BR-32', 'BR-33', 'BR-CO-21', 'BR-DEC-01', 'BR-DEC-02']
      : ['BR-36', 'BR-37', 'BR-38', 'BR-CO-22', 'BR-DEC-05', 'BR-DEC-06']
  report.check(charge.amount !== undefined, amount!, charge.path)
  report.check(hasVatCategory(charge), category!, charge.path)
  report.check(hasReason(charge), reason!, charge.path)
  report.check(hasReason(charge), coReason!, charge.path)
  decimals(charge.amount, decAmount!, charge.path, report)
  decimals(charge.baseAmount, decBase!, charge.path, report)
}

function lineAllowanceCharge(charge: AllowanceCharge, report: Report): void {
  const indicator = booleanOf(charge.indicator)
  if (indicator === undefined) return
  const [amount, reason, coReason, decAmount, decBase] =
    indicator === false
      ? ['BR-41', 'BR-42', 'BR-CO-23', 'BR-DEC-24', 'BR-DEC-25']
      : ['BR-43', 'BR-44', 'BR-CO-24', 'BR-DEC-27', 'BR-DEC-28']
  report.check(charge.amount !== undefined, amount!, charge.path)
  report.check(hasReason(charge), reason!, charge.path)
  report.check(hasReason(charge), coReason!, charge.path)
  decimals(charge.amount, decAmount!, charge.path, report)
  decimals(charge.baseAmount, decBase!, charge.path, report)
}

/** BR-CL-08: a note's subject code between '#' signs, when it has one of three letters. */
function noteSubject(value: string, path: string, report: Report): void {
  if (!value.includes('#')) return
  const after = value.slice(value.indexOf('#') + 1)
  const end = after.indexOf('#')
  const code = end < 0 ? '' : after.slice(0, end)
  if (code.length !== 3) return
  report.check(NOTE_TEXT.includes(code), 'BR-CL-08', path)
}

/** BR-B-01, BR-B-02: the Italian split payment category B. */
function splitPayment(model: Model, report: Report): void {
  const isB = (id: { value: string } | undefined) => id?.value === 'B'
  const isS = (id: { value: string } | undefined) => id?.value === 'S'
  const subtotalCategories = model.taxTotals.flatMap((total) =>
    total.subtotals.flatMap((subtotal) => subtotal.categories),
  )
  const documentCategories = model.allowanceCharges.flatMap((charge) => charge.taxCategories)
  const classified = model.lines.flatMap((line) => line.classifiedTaxCategories)
  const lineCategories = model.lines.flatMap((line) =>
    [...line.allowanceCharges, ...line.priceAllowanceCharges].flatMap((charge) => charge.taxCategories),
  )
  const anyB =
    [...subtotalCategories, ...documentCategories, ...lineCategories].some((category) => isB(category.id)) ||
    classified.some((category) => isB(category.id))
  const notItaly = model.codes.some(
    (code) => (code.rule === 'BR-CL-14' || code.rule === 'BR-CL-15') && code.value !== 'IT',
  )
  report.check(!anyB || !notItaly, 'BR-B-01', model.path)
  const rootB = [...subtotalCategories, ...documentCategories, ...classified].some((category) =>
    isB(category.id),
  )
  const rootS = [...subtotalCategories, ...documentCategories, ...classified].some((category) =>
    isS(category.id),
  )
  report.check(!rootB || !rootS, 'BR-B-02', model.path)
}

const NOTE_TEXT = ` ${[...NOTE_SUBJECT_CODES].join(' ')} `
