import { type Dec, dec, num, round2, ZERO } from '../decimal.js'
import { booleanOf } from '../from-ubl.js'
import type { AllowanceCharge, Model, Party, TaxCategory, TaxSubtotal } from '../model.js'
import type { Report } from './report.js'

/**
 * The VAT category rules: standard rated S (BR-S-*), zero rated Z, exempt E, reverse charge AE,
 * intra-community K (BR-IC-*), export G, not subject O, Canary Islands L (BR-AF-*) and Ceuta and
 * Melilla M (BR-AG-*). Each family has the same ten shapes with the differences the artefact writes;
 * the sums per category and rate are made once over the lines (linear in lines).
 */

interface Family {
  prefix: string
  code: string
  /** Lines, allowances and the breakdown agree on presence: 'some' (S, L, M) or 'one' subtotal (the others). */
  presence: 'some' | 'one'
  /** The seller's VAT identifier may be of any tax scheme (S, Z, E, AE, L, M) or must be VAT's (K, G). */
  sellerSchemeAny: boolean
  /** The buyer must be identified: AE (VAT id or legal id), K (VAT id). */
  buyer?: 'vat-or-legal' | 'vat'
  /** The rate on lines and allowances: > 0 (S), = 0, absent (O), >= 0 (L, M). */
  rate: 'positive' | 'zero' | 'absent' | 'non-negative'
  /** The breakdown's taxable amount within 1 of the sum per rate (S, L, M), or equal per category. */
  perRate: boolean
  /** An exemption reason is forbidden (S, Z, L, M) or required. */
  exemption: 'forbidden' | 'required'
}

const FAMILIES: Family[] = [
  {
    prefix: 'BR-S',
    code: 'S',
    presence: 'some',
    sellerSchemeAny: true,
    rate: 'positive',
    perRate: true,
    exemption: 'forbidden',
  },
  {
    prefix: 'BR-Z',
    code: 'Z',
    presence: 'one',
    sellerSchemeAny: true,
    rate: 'zero',
    perRate: false,
    exemption: 'forbidden',
  },
  {
    prefix: 'BR-E',
    code: 'E',
    presence: 'one',
    sellerSchemeAny: true,
    rate: 'zero',
    perRate: false,
    exemption: 'required',
  },
  {
    prefix: 'BR-AE',
    code: 'AE',
    presence: 'one',
    sellerSchemeAny: true,
    buyer: 'vat-or-legal',
    rate: 'zero',
    perRate: false,
    exemption: 'required',
  },
  {
    prefix: 'BR-IC',
    code: 'K',
    presence: 'one',
    sellerSchemeAny: false,
    buyer: 'vat',
    rate: 'zero',
    perRate: false,
    exemption: 'required',
  },
  {
    prefix: 'BR-G',
    code: 'G',
    presence: 'one',
    sellerSchemeAny: false,
    rate: 'zero',
    perRate: false,
    exemption: 'required',
  },
  {
    prefix: 'BR-O',
    code: 'O',
    presence: 'one',
    sellerSchemeAny: false,
    rate: 'absent',
    perRate: false,
    exemption: 'required',
  },
  {
    prefix: 'BR-AF',
    code: 'L',
    presence: 'some',
    sellerSchemeAny: true,
    rate: 'non-negative',
    perRate: true,
    exemption: 'forbidden',
  },
  {
    prefix: 'BR-AG',
    code: 'M',
    presence: 'some',
    sellerSchemeAny: true,
    rate: 'non-negative',
    perRate: true,
    exemption: 'forbidden',
  },
]

const idOf = (category: TaxCategory) => category.id?.value.trim()
const companyIds = (party: Party | undefined, vatOnly: boolean) =>
  (party?.taxSchemes ?? []).some((scheme) => (!vatOnly || scheme.vat) && scheme.companyId !== undefined)

type Sums = Map<string, Dec>
const add = (map: Sums, key: string, amount: Dec) => map.set(key, (map.get(key) ?? ZERO).plus(amount))
const idsOf = (categories: TaxCategory[]) => new Set(categories.map(idOf).filter((id) => id !== undefined))
const ratesOf = (categories: TaxCategory[]) =>
  new Set(
    categories.flatMap((category) => {
      const rate = dec(category.percent)
      return rate ? [rate.toString()] : []
    }),
  )

/** Sums of line amounts per category, and per category and rate, by line kind (one pass over the lines). */
function lineSums(model: Model) {
  const perCategory: Sums = new Map()
  const perRate: Sums = new Map()
  const kinds = new Set<string>()
  for (const line of model.lines) {
    const kind = line.path.includes('cac:CreditNoteLine') ? 'cn' : 'inv'
    kinds.add(kind)
    const amount = dec(line.lineExtensionAmount)
    const rates = ratesOf(line.classifiedTaxCategories)
    for (const id of idsOf(line.classifiedTaxCategories)) {
      if (amount) add(perCategory, `${kind}|${id}`, amount)
      for (const rate of rates) {
        if (amount) add(perRate, `${kind}|${id}|${rate}`, amount)
        add(perRate, `exists|${kind}|${id}|${rate}`, ZERO)
      }
    }
  }
  return { perCategory, perRate, kinds }
}

/** Document level allowances and charges per category (and rate), signed: charges add, allowances subtract. */
function chargeSums(model: Model, everyCharge: AllowanceCharge[]) {
  const chargePerCategory: Sums = new Map()
  const chargePerRate: Sums = new Map()
  for (const charge of model.allowanceCharges) {
    const indicator = booleanOf(charge.indicator)
    const amount = dec(charge.amount)
    if (indicator === undefined || !amount) continue
    const signed = indicator ? amount : amount.neg()
    const rates = ratesOf(charge.taxCategories)
    for (const id of idsOf(charge.taxCategories)) {
      add(chargePerCategory, id, signed)
      for (const rate of rates) add(chargePerRate, `${id}|${rate}`, signed)
    }
  }
  const chargeRateExists = new Set<string>()
  for (const charge of everyCharge) {
    const rates = ratesOf(charge.taxCategories)
    for (const id of idsOf(charge.taxCategories))
      for (const rate of rates) chargeRateExists.add(`${id}|${rate}`)
  }
  return { chargePerCategory, chargePerRate, chargeRateExists }
}

/** Everything the families read, gathered in one pass. */
function gather(model: Model) {
  const everyCharge = [
    ...model.allowanceCharges,
    ...model.lines.flatMap((line) => [...line.allowanceCharges, ...line.priceAllowanceCharges]),
  ]
  const subtotalCategories = model.taxTotals
    .flatMap((total) => total.subtotals)
    .flatMap((subtotal) => subtotal.categories.map((category) => ({ category, subtotal })))
  const classified = model.lines.flatMap((line) => line.classifiedTaxCategories)
  return {
    everyCharge,
    subtotalCategories,
    classified,
    ...lineSums(model),
    ...chargeSums(model, everyCharge),
  }
}

export function vatRules(model: Model, report: Report): void {
  const facts = gather(model)
  const seller = model.seller?.party
  const buyer = model.buyer?.party
  const representativeVat = companyIds(model.taxRepresentative, true)
  for (const family of FAMILIES) {
    const is = (category: TaxCategory) => idOf(category) === family.code
    const isVat = (category: TaxCategory) => is(category) && category.vat
    const c: FamilyContext = { family, model, facts, report, is, isVat }
    presence(c)
    identification(c, seller, buyer, representativeVat)
    rates(c)
    for (const { category, subtotal } of facts.subtotalCategories)
      if (isVat(category)) familyBreakdown(c, category, subtotal)
  }
  outsideScope(model, facts, report)
  intraCommunity(model, facts, report)
}

type Facts = ReturnType<typeof gather>

interface FamilyContext {
  family: Family
  model: Model
  facts: Facts
  report: Report
  is: (category: TaxCategory) => boolean
  isVat: (category: TaxCategory) => boolean
}

/** -01: lines, allowances and charges of the category have a breakdown of it (and only then). */
function presence({ family, model, facts, report, is, isVat }: FamilyContext): void {
  const { prefix, code } = family
  const subtotalHits = facts.subtotalCategories.filter(({ category }) => isVat(category)).length
  if (family.presence === 'some') {
    const of = code === 'S' ? is : isVat
    const used =
      facts.everyCharge.some((charge) => charge.taxCategories.some(of)) || facts.classified.some(of)
    const broken = facts.subtotalCategories.some(({ category }) => of(category))
    report.check(used === broken, `${prefix}-01`, model.path)
  } else {
    const used =
      facts.everyCharge.some((charge) => charge.taxCategories.some(isVat)) ||
      subtotalHits > 0 ||
      facts.classified.some(isVat)
    report.check(!used || subtotalHits === 1, `${prefix}-01`, model.path)
  }
}

/** -02, -03, -04: who must be identified when lines, allowances or charges use the category. */
function identification(
  { family, model, facts, report, is, isVat }: FamilyContext,
  seller: Party | undefined,
  buyer: Party | undefined,
  representativeVat: boolean,
): void {
  const { prefix, code } = family
  let identified: boolean
  if (code === 'O') identified = !companyIds(seller, true) && !representativeVat && !companyIds(buyer, true)
  else {
    identified = companyIds(seller, !family.sellerSchemeAny) || representativeVat
    if (family.buyer === 'vat-or-legal')
      identified &&= companyIds(buyer, true) || (buyer?.legalCompanyIds.length ?? 0) > 0
    else if (family.buyer === 'vat') identified &&= companyIds(buyer, true)
  }
  const lineUse = facts.classified.some(isVat)
  const lineUseLoose = code === 'S' ? facts.classified.some(is) : lineUse
  report.check((lineUse && identified) || !lineUseLoose, `${prefix}-02`, model.path)
  const chargesOf = (indicator: boolean) =>
    (code === 'O' ? model.allowanceCharges : facts.everyCharge).filter(
      (charge) => booleanOf(charge.indicator) === indicator,
    )
  for (const [indicator, suffix] of [
    [false, '03'],
    [true, '04'],
  ] as const) {
    const use = chargesOf(indicator).some((charge) => charge.taxCategories.some(isVat))
    report.check(!use || identified, `${prefix}-${suffix}`, model.path)
  }
}

/** -05, -06, -07: the rate on lines, allowances and charges. */
function rates({ family, model, facts, report, isVat }: FamilyContext): void {
  const { prefix } = family
  const rateHolds = (category: TaxCategory) => {
    if (family.rate === 'absent') return category.percent === undefined
    if (family.rate === 'zero') return dec(category.percent)?.isZero() === true
    const rate = num(category.percent)
    return rate !== undefined && (family.rate === 'positive' ? rate > 0 : rate >= 0)
  }
  for (const line of model.lines)
    for (const category of line.classifiedTaxCategories)
      if (isVat(category)) report.check(rateHolds(category), `${prefix}-05`, category.path)
  for (const charge of facts.everyCharge) {
    const indicator = booleanOf(charge.indicator)
    if (indicator === undefined) continue
    for (const category of charge.taxCategories)
      if (isVat(category))
        report.check(rateHolds(category), `${prefix}-${indicator ? '07' : '06'}`, category.path)
  }
}

/** -08, -09, -10: a breakdown of the category. */
function familyBreakdown(
  { family, facts, report }: FamilyContext,
  category: TaxCategory,
  subtotal: TaxSubtotal,
): void {
  const { prefix } = family
  const taxable = dec(subtotal.taxableAmount)
  const tax = dec(subtotal.taxAmount)
  if (family.perRate) {
    report.check(perRateTaxableHolds(family.code, facts, category, subtotal), `${prefix}-08`, category.path)
    const percent = dec(category.percent)
    const expected = taxable && percent ? round2(taxable.abs().times(percent.div(100))) : undefined
    report.check(
      tax !== undefined &&
        expected !== undefined &&
        tax.abs().minus(1).lt(expected) &&
        tax.abs().plus(1).gt(expected),
      `${prefix}-09`,
      category.path,
    )
  } else {
    let holds = false
    for (const kind of ['inv', 'cn']) {
      if (!facts.kinds.has(kind)) continue
      const expected = (facts.perCategory.get(`${kind}|${family.code}`) ?? ZERO).plus(
        facts.chargePerCategory.get(family.code) ?? ZERO,
      )
      if (taxable?.eq(expected)) holds = true
    }
    report.check(holds, `${prefix}-08`, category.path)
    report.check(tax?.isZero() === true, `${prefix}-09`, category.path)
  }
  const exempt = category.exemptionReason !== undefined || category.exemptionReasonCode !== undefined
  report.check(family.exemption === 'forbidden' ? !exempt : exempt, `${prefix}-10`, category.path)
}

/** S-08, AF-08, AG-08: the taxable amount is within 1 of the lines and allowances at that rate. */
function perRateTaxableHolds(
  code: string,
  facts: Facts,
  category: TaxCategory,
  subtotal: TaxSubtotal,
): boolean {
  if (!category.percent) return true
  const rate = dec(category.percent)
  const key = rate?.toString()
  const taxable = num(subtotal.taxableAmount)
  for (const kind of ['inv', 'cn']) {
    const rateUsed =
      facts.perRate.has(`exists|${kind}|${code}|${key}`) || facts.chargeRateExists.has(`${code}|${key}`)
    if (code === 'S' ? !rateUsed : !facts.kinds.has(kind)) continue
    const expected = (facts.perRate.get(`${kind}|${code}|${key}`) ?? ZERO)
      .plus(facts.chargePerRate.get(`${code}|${key}`) ?? ZERO)
      .toNumber()
    if (rate && taxable !== undefined && taxable - 1 < expected && taxable + 1 > expected) return true
  }
  return false
}

/** BR-O-11 to BR-O-14: an invoice with a breakdown of category O has no other VAT category. */
function outsideScope(model: Model, facts: Facts, report: Report): void {
  const hasO = facts.subtotalCategories.some(({ category }) => category.vat && idOf(category) === 'O')
  if (!hasO) return
  const other = (category: TaxCategory) => category.vat && idOf(category) !== 'O'
  report.check(!facts.subtotalCategories.some(({ category }) => other(category)), 'BR-O-11', model.path)
  report.check(!facts.classified.some(other), 'BR-O-12', model.path)
  for (const [indicator, rule] of [
    [false, 'BR-O-13'],
    [true, 'BR-O-14'],
  ] as const)
    report.check(
      !facts.everyCharge.some(
        (charge) => booleanOf(charge.indicator) === indicator && charge.taxCategories.some(other),
      ),
      rule,
      model.path,
    )
}

/** BR-IC-11, BR-IC-12: an intra-community supply names its delivery date or period, and where to. */
function intraCommunity(model: Model, facts: Facts, report: Report): void {
  const hasK = facts.subtotalCategories.some(({ category }) => category.vat && idOf(category) === 'K')
  if (!hasK) return
  const date = model.deliveries[0]?.actualDate?.value ?? ''
  report.check(date.length > 1 || model.periods.some((period) => period.hasChildren), 'BR-IC-11', model.path)
  const country = model.deliveries[0]?.address?.country?.value ?? ''
  report.check(country.length > 1, 'BR-IC-12', model.path)
}
