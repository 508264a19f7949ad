import { Decimal } from 'decimal.js'
import type { Problem } from '#lib/platform/errors.ts'
import { type CodeLists, hsDigits } from './code-lists.ts'
import { problem } from './problems.ts'
import { IRN_PATTERN, type RuleSet } from './schemas.ts'

/**
 * The authority's rules beyond the schema (CONTRACT section 4). They run on the raw request, beside
 * the schema rather than after it, so that one reply lists every violation: each check reads only
 * the fields it needs and skips a field the schema already reports as missing or mistyped.
 *
 * `errors` always fail; `arithmetic` (the amounts and the date order) fail in strict mode and are
 * warnings in lenient mode; `warnings` never fail (the authority's classification codes, NG-AU-06).
 */
export interface RuleContext {
  lists: CodeLists
  /** The caller's business's service id: the IRN's middle segment must be it. */
  serviceId: string
  /** The interface's (default) or the authority's rules (CONTRACT 17). */
  rules?: RuleSet
}

export interface RuleFindings {
  errors: Problem[]
  arithmetic: Problem[]
  warnings: Problem[]
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** Money is compared at 2 decimal places, rounded half up, in decimal: never in binary floating point. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP })
type Dec = InstanceType<typeof D>
const dec = (n: number): Dec => new D(n)
const round2 = (d: Dec) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
const money = (d: Dec) => round2(d).toFixed(2)

const DATE = /^\d{4}-\d{2}-\d{2}$/
/** True when `YYYYMMDD` or `YYYY-MM-DD` names a day that exists. */
export function realDate(value: string): boolean {
  const digits = value.replaceAll('-', '')
  if (!/^\d{8}$/.test(digits)) return false
  const y = Number(digits.slice(0, 4))
  const m = Number(digits.slice(4, 6))
  const d = Number(digits.slice(6, 8))
  const at = new Date(Date.UTC(y, m - 1, d))
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d
}
const validDate = (v: unknown): string | undefined => {
  const s = str(v)
  return s && DATE.test(s) && realDate(s) ? s : undefined
}

/**
 * The authority's types that adjust or replace an earlier invoice and so must point at it: credit
 * note 380, debit note 384, self billed invoice 385, self-billed credit note 393, self-billed invoice 394.
 */
export const BILLING_REFERENCE_REQUIRED = new Set(['380', '384', '385', '393', '394'])

export const PARTIES = [
  'accounting_supplier_party',
  'accounting_customer_party',
  'payee_party',
  'bill_party',
  'ship_party',
  'tax_representative_party',
] as const

const LGA_FORM = /^NG-[A-Z]{2}-[A-Z]{3}$/

/** Suggests the upper-case spelling when that is what the list holds ("ngn" for "NGN"). */
function notInList(value: string, set: ReadonlySet<string>, what: string): string {
  const upper = value.toUpperCase()
  const hint = upper !== value && set.has(upper) ? `; codes are case-sensitive: did you mean "${upper}"?` : ''
  return `"${value}" is not in the ${what} list${hint}`
}

function checkAddress(path: string, address: Obj, lists: CodeLists, errors: Problem[]) {
  const country = str(address.country)
  if (country !== undefined && !lists.countries.has(country)) {
    errors.push(
      problem(
        `${path}/country`,
        'NG-CL-03',
        `${notInList(country, lists.countries, 'countries')} (ISO 3166-1 alpha-2, e.g. NG)`,
      ),
    )
  }
  // The states and LGAs lists are Nigeria's: a foreign address keeps its own subdivisions.
  if (country !== 'NG') return
  const state = str(address.state)
  const stateKnown = state !== undefined && lists.states.has(state)
  if (state !== undefined && !stateKnown) {
    errors.push(
      problem(
        `${path}/state`,
        'NG-CL-04',
        `${notInList(state, lists.states, 'states')} (e.g. NG-LA for Lagos)`,
      ),
    )
  }
  const lga = str(address.lga)
  if (lga === undefined) return
  if (lists.lgas.complete) {
    const lgaState = lists.lgas.stateOf.get(lga)
    if (lgaState === undefined) {
      errors.push(
        problem(`${path}/lga`, 'NG-CL-05', `${notInList(lga, new Set(lists.lgas.stateOf.keys()), 'LGAs')}`),
      )
    } else if (stateKnown && lgaState !== state) {
      errors.push(
        problem(
          `${path}/lga`,
          'NG-CL-05',
          `LGA "${lga}" is in ${lgaState}, not in the address's state ${state}`,
        ),
      )
    }
    return
  }
  // CONTRACT section 4: until the full list is loaded, an LGA is checked by form and by its state.
  if (!LGA_FORM.test(lga)) {
    errors.push(
      problem(
        `${path}/lga`,
        'NG-CL-05',
        `"${lga}" is not an LGA code of the form NG-XX-YYY (e.g. NG-AB-ANO)`,
      ),
    )
  } else if (stateKnown && lga.slice(0, 5) !== state) {
    errors.push(problem(`${path}/lga`, 'NG-CL-05', `LGA "${lga}" is not in the address's state ${state}`))
  }
}

/** An IRN already of the right form: its date segment must exist (and, for the invoice's own, its service id). */
function checkIrnDate(path: string, irn: string, errors: Problem[]) {
  const date = irn.slice(-8)
  if (!realDate(date)) {
    errors.push(problem(path, 'NG-IRN-02', `The IRN's date segment ${date} is not a real date (YYYYMMDD)`))
  }
}

function checkCodes(invoice: Obj, ctx: RuleContext, errors: Problem[], warnings: Problem[]) {
  const { lists } = ctx
  // The classification codes the authority's own examples fill with placeholders: on its paths a warning.
  const classification = (p: Problem) =>
    ctx.rules === 'authority'
      ? warnings.push({ ...p, code: 'NG-AU-06', message: `${p.message} (a warning here)` })
      : errors.push(p)
  const type = str(invoice.invoice_type_code)
  if (type !== undefined && !lists.invoiceTypes.has(type)) {
    errors.push(
      problem(
        'invoice_type_code',
        'NG-CL-01',
        `${notInList(type, lists.invoiceTypes, 'invoice types')} (see /api/v1/resource/invoice-types)`,
      ),
    )
  }
  for (const name of ['document_currency_code', 'tax_currency_code']) {
    const code = str(invoice[name])
    if (code !== undefined && !lists.currencies.has(code)) {
      errors.push(
        problem(name, 'NG-CL-02', `${notInList(code, lists.currencies, 'currencies')} (ISO 4217, e.g. NGN)`),
      )
    }
  }
  for (const party of PARTIES) {
    const address = obj(obj(invoice[party])?.postal_address)
    if (address) checkAddress(`${party}/postal_address`, address, lists, errors)
  }
  list(invoice.tax_total).forEach((total, i) => {
    list(obj(total)?.tax_subtotal).forEach((sub, j) => {
      const id = str(obj(obj(sub)?.tax_category)?.id)
      if (id !== undefined && !lists.taxCategories.has(id)) {
        errors.push(
          problem(
            `tax_total/${i}/tax_subtotal/${j}/tax_category/id`,
            'NG-CL-06',
            `${notInList(id, lists.taxCategories, 'tax categories')} (e.g. STANDARD_VAT)`,
          ),
        )
      }
    })
  })
  list(invoice.payment_means).forEach((means, i) => {
    const code = str(obj(means)?.payment_means_code)
    if (code !== undefined && !lists.paymentMeans.has(code)) {
      errors.push(
        problem(
          `payment_means/${i}/payment_means_code`,
          'NG-CL-07',
          `${notInList(code, lists.paymentMeans, 'payment means')} (e.g. 30 for credit transfer)`,
        ),
      )
    }
  })
  list(invoice.invoice_line).forEach((line, i) => {
    const l = obj(line)
    const hs = str(l?.hsn_code)
    if (hs !== undefined) {
      const digits = hsDigits(hs)
      if (!/^\d{6,10}$/.test(digits) || !lists.hsCodes.has(digits.slice(0, 6))) {
        classification(
          problem(
            `invoice_line/${i}/hsn_code`,
            'NG-CL-08',
            `"${hs}" is not an HS code in the product codes list (form XXXX.XX, e.g. 0101.21)`,
          ),
        )
      }
    }
    const isic = str(l?.isic_code)
    if (isic !== undefined && !lists.isicCodes.has(isic)) {
      classification(
        problem(
          `invoice_line/${i}/isic_code`,
          'NG-CL-09',
          `"${isic}" is not an ISIC class in the service codes list (4 digits, e.g. 0111)`,
        ),
      )
    }
  })
}

function checkIrns(invoice: Obj, ctx: RuleContext, errors: Problem[]) {
  const irn = str(invoice.irn)
  if (irn !== undefined && IRN_PATTERN.test(irn)) {
    checkIrnDate('irn', irn, errors)
    const [reference, serviceId] = irn.split('-') as [string, string]
    // The invoice's own IRN is registered by this write, so its reference follows generate-irn's
    // invoice_number rule, as validate-irn's does (lib/irn/schemas.ts); references to other
    // documents are only read, and keep the bare form.
    if (reference.length < 2 || reference.length > 50) {
      errors.push(
        problem(
          'irn',
          'NG-IRN-01',
          `The IRN's invoice reference (before its first hyphen) is ${reference.length} characters: it must be 2 to 50 letters and digits`,
        ),
      )
    }
    if (serviceId !== ctx.serviceId) {
      errors.push(
        problem(
          'irn',
          'NG-IRN-03',
          `The IRN's service id ${serviceId} is not your business's: an IRN must carry your business's own service id, ${ctx.serviceId} (<reference>-${ctx.serviceId}-<YYYYMMDD>)`,
        ),
      )
    }
  }
  const refs: [string, unknown][] = [
    ...list(invoice.billing_reference).map((r, i) => [`billing_reference/${i}`, r] as [string, unknown]),
    ...list(invoice.document_reference).map((r, i) => [`document_reference/${i}`, r] as [string, unknown]),
    ...list(invoice.additional_document_reference).map(
      (r, i) => [`additional_document_reference/${i}`, r] as [string, unknown],
    ),
    ...['dispatch', 'receipt', 'originator', 'contract'].map(
      (k) => [`${k}_document_reference`, invoice[`${k}_document_reference`]] as [string, unknown],
    ),
  ]
  for (const [path, ref] of refs) {
    const refIrn = str(obj(ref)?.irn)
    if (refIrn !== undefined && IRN_PATTERN.test(refIrn)) checkIrnDate(`${path}/irn`, refIrn, errors)
  }
}

/**
 * UNCL 1001 reads 380 as the commercial invoice, and integrators send it for one: the authority's 380
 * is its Credit Note, so the refusal says so and names the authority's invoice codes.
 */
function missingReference(type: string): string {
  const need = "billing_reference must name that invoice's IRN and issue_date"
  if (type !== '380') return `Invoice type ${type} adjusts an earlier invoice: ${need}`
  return (
    `Invoice type 380 is the authority's Credit Note (not UNCL's commercial invoice), which adjusts an earlier invoice: ${need}. ` +
    'For an invoice of its own, send invoice_type_code 381 (Commercial Invoice) or 396 (Invoice Request)'
  )
}

function checkBillingReference(invoice: Obj, errors: Problem[]) {
  const type = str(invoice.invoice_type_code)
  const refs = invoice.billing_reference
  if (
    type !== undefined &&
    BILLING_REFERENCE_REQUIRED.has(type) &&
    (refs === undefined || (Array.isArray(refs) && refs.length === 0))
  ) {
    errors.push(problem('billing_reference', 'NG-BR-01', missingReference(type)))
  }
  const irn = str(invoice.irn)
  const issued = validDate(invoice.issue_date)
  list(refs).forEach((ref, i) => {
    const r = obj(ref)
    if (irn !== undefined && str(r?.irn) === irn) {
      errors.push(
        problem(`billing_reference/${i}/irn`, 'NG-BR-02', 'An invoice cannot be its own billing reference'),
      )
    }
    const refDate = validDate(r?.issue_date)
    if (issued && refDate && refDate > issued) {
      errors.push(
        problem(
          `billing_reference/${i}/issue_date`,
          'NG-BR-02',
          `The referenced document is dated ${refDate}, after this invoice's issue_date ${issued}: it must be an earlier document`,
        ),
      )
    }
  })
}

function checkDates(invoice: Obj, out: Problem[]) {
  const issued = validDate(invoice.issue_date)
  const due = validDate(invoice.due_date)
  if (issued && due && due < issued) {
    out.push(problem('due_date', 'NG-DT-02', `due_date ${due} is before issue_date ${issued}`))
  }
  const period = obj(invoice.invoice_delivery_period)
  const start = validDate(period?.start_date)
  const end = validDate(period?.end_date)
  if (start && end && start > end) {
    out.push(
      problem(
        'invoice_delivery_period/end_date',
        'NG-DT-03',
        `The delivery period ends (${end}) before it starts (${start})`,
      ),
    )
  }
}

function differs(stated: number, computed: Dec): boolean {
  return !round2(dec(stated)).eq(round2(computed))
}

/**
 * The exact fast path of the per-line rule. decimal.js costs about a microsecond per number made,
 * which on a 1,000-line invoice costs more than parsing the body; almost every amount is a whole
 * number of kobo, and for those integer arithmetic gives exactly decimal.js's answer. Anything else
 * (more than 2 decimals, huge values, an overflow) is left to decimal.js. A property test holds the
 * two to the same results.
 */
export function centsOf(v: number): number | undefined {
  // Below 1e12 two 2-decimal amounts never share a double, so v is exactly k/100 when this holds.
  if (!(Math.abs(v) < 1e12)) return undefined
  const k = Math.round(v * 100)
  return k / 100 === v ? k : undefined
}

/** n / d rounded half away from zero (decimal.js's ROUND_HALF_UP), for safe integers, d > 0. */
export function divRoundHalfUp(n: number, d: number): number | undefined {
  const a = Math.abs(n)
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d) || d <= 0 || !Number.isSafeInteger(2 * a))
    return undefined
  let q = Math.floor(a / d)
  // Float division can land one off the true quotient: correct it with exact integer products.
  while (q * d > a) q--
  while ((q + 1) * d <= a) q++
  const rounded = 2 * (a - q * d) >= d ? q + 1 : q
  return n < 0 ? -rounded : rounded
}

/** The line's computed amount in kobo when the fast path applies, else undefined. */
export function lineCents(quantity: number, priceAmount: number, base: number): number | undefined {
  const price = centsOf(priceAmount)
  if (price === undefined || !Number.isInteger(quantity) || !Number.isInteger(base)) return undefined
  return divRoundHalfUp(quantity * price, base)
}

/** The amounts of CONTRACT section 4, each compared to 2 decimal places, rounded half up. */
function checkArithmetic(invoice: Obj, out: Problem[]) {
  const lines = list(invoice.invoice_line)
  // The sum of the lines, in kobo while every line is a whole number of kobo, else in decimal.
  let sumCents: number | undefined = 0
  let allNumbers = true
  lines.forEach((line, i) => {
    const l = obj(line)
    const stated = l?.line_extension_amount
    if (!isNum(stated)) {
      allNumbers = false
      return
    }
    const statedCents = centsOf(stated)
    sumCents = sumCents !== undefined && statedCents !== undefined ? sumCents + statedCents : undefined
    const price = obj(l?.price)
    const quantity = l?.invoiced_quantity
    const amount = price?.price_amount
    const base = price?.base_quantity
    if (!isNum(quantity) || !isNum(amount) || !isNum(base) || base <= 0) return
    const fast = statedCents === undefined ? undefined : lineCents(quantity, amount, base)
    if (fast !== undefined ? fast === statedCents : !differs(stated, dec(quantity).times(amount).div(base)))
      return
    const computed = dec(quantity).times(amount).div(base)
    out.push(
      problem(
        `invoice_line/${i}/line_extension_amount`,
        'NG-CO-01',
        `line_extension_amount is ${money(dec(stated))} but invoiced_quantity x price_amount / base_quantity = ${quantity} x ${amount} / ${base} = ${money(computed)}`,
      ),
    )
  })
  let lineSum: Dec | undefined
  if (allNumbers) {
    lineSum =
      sumCents !== undefined && Number.isSafeInteger(sumCents)
        ? new D(sumCents).div(100)
        : lines.reduce((sum: Dec, line) => sum.plus(obj(line)!.line_extension_amount as number), new D(0))
  }

  const totals = obj(invoice.legal_monetary_total)
  const lineExtension = totals?.line_extension_amount
  if (lineSum && lines.length > 0 && isNum(lineExtension) && differs(lineExtension, lineSum)) {
    out.push(
      problem(
        'legal_monetary_total/line_extension_amount',
        'NG-CO-10',
        `line_extension_amount is ${money(dec(lineExtension))} but the ${lines.length} lines add up to ${money(lineSum)}`,
      ),
    )
  }

  let allowances: Dec | undefined = new D(0)
  let charges: Dec | undefined = new D(0)
  for (const entry of list(invoice.allowance_charge)) {
    const e = obj(entry)
    if (!isNum(e?.amount) || typeof e.charge_indicator !== 'boolean') {
      allowances = charges = undefined
      break
    }
    if (e.charge_indicator) charges = charges!.plus(e.amount)
    else allowances = allowances!.plus(e.amount)
  }
  const taxExclusive = totals?.tax_exclusive_amount
  if (isNum(lineExtension) && isNum(taxExclusive) && allowances && charges) {
    const computed = dec(lineExtension).minus(allowances).plus(charges)
    if (differs(taxExclusive, computed)) {
      out.push(
        problem(
          'legal_monetary_total/tax_exclusive_amount',
          'NG-CO-13',
          `tax_exclusive_amount is ${money(dec(taxExclusive))} but line_extension_amount - allowances + charges = ${money(dec(lineExtension))} - ${money(allowances)} + ${money(charges)} = ${money(computed)}`,
        ),
      )
    }
  }

  let taxTotal: Dec | undefined = new D(0)
  list(invoice.tax_total).forEach((total, i) => {
    const t = obj(total)
    let subtotalSum: Dec | undefined = new D(0)
    list(t?.tax_subtotal).forEach((sub, j) => {
      const s = obj(sub)
      const taxAmount = s?.tax_amount
      if (!isNum(taxAmount)) {
        subtotalSum = undefined
        return
      }
      subtotalSum = subtotalSum?.plus(taxAmount)
      const taxable = s?.taxable_amount
      const percent = obj(s?.tax_category)?.percent
      if (!isNum(taxable) || !isNum(percent)) return
      const computed = dec(taxable).times(percent).div(100)
      if (differs(taxAmount, computed)) {
        out.push(
          problem(
            `tax_total/${i}/tax_subtotal/${j}/tax_amount`,
            'NG-CO-17',
            `tax_amount is ${money(dec(taxAmount))} but taxable_amount x percent / 100 = ${taxable} x ${percent} / 100 = ${money(computed)}`,
          ),
        )
      }
    })
    const stated = t?.tax_amount
    if (!isNum(stated)) {
      taxTotal = undefined
      return
    }
    taxTotal = taxTotal?.plus(stated)
    if (subtotalSum && Array.isArray(t?.tax_subtotal) && differs(stated, subtotalSum)) {
      out.push(
        problem(
          `tax_total/${i}/tax_amount`,
          'NG-CO-14',
          `tax_amount is ${money(dec(stated))} but its ${t.tax_subtotal.length} subtotals add up to ${money(subtotalSum)}`,
        ),
      )
    }
  })

  const taxInclusive = totals?.tax_inclusive_amount
  if (isNum(taxExclusive) && isNum(taxInclusive) && taxTotal) {
    const computed = dec(taxExclusive).plus(taxTotal)
    if (differs(taxInclusive, computed)) {
      out.push(
        problem(
          'legal_monetary_total/tax_inclusive_amount',
          'NG-CO-15',
          `tax_inclusive_amount is ${money(dec(taxInclusive))} but tax_exclusive_amount + tax total = ${money(dec(taxExclusive))} + ${money(taxTotal)} = ${money(computed)}`,
        ),
      )
    }
  }
  const payable = totals?.payable_amount
  if (isNum(payable) && isNum(taxInclusive) && round2(dec(payable)).gt(round2(dec(taxInclusive)))) {
    out.push(
      problem(
        'legal_monetary_total/payable_amount',
        'NG-CO-16',
        `payable_amount ${money(dec(payable))} is more than tax_inclusive_amount ${money(dec(taxInclusive))}`,
      ),
    )
  }
}

/**
 * Amounts and rates that cannot be below zero (CONTRACT 18): the payable amount (NG-BR-07; a credit
 * note states the positive amount it credits, which NG-BR-04 holds against its original, so a
 * negative one would quietly un-credit it) and every tax percent (NG-BR-08). Never lenient: no
 * arithmetic is wrong, the document says something that cannot be.
 */
function checkSigns(invoice: Obj, errors: Problem[]) {
  const payable = obj(invoice.legal_monetary_total)?.payable_amount
  if (isNum(payable) && payable < 0) {
    errors.push(
      problem(
        'legal_monetary_total/payable_amount',
        'NG-BR-07',
        `payable_amount is ${payable}: what an invoice or note makes payable is 0 or more (a credit note states the amount it credits as a positive figure)`,
      ),
    )
  }
  list(invoice.tax_total).forEach((total, i) => {
    list(obj(total)?.tax_subtotal).forEach((sub, j) => {
      const s = obj(sub)
      const at = `tax_total/${i}/tax_subtotal/${j}`
      const percents: [string, unknown][] = [
        [`${at}/tax_category/percent`, obj(s?.tax_category)?.percent],
        [`${at}/tax_category_percent`, s?.tax_category_percent],
      ]
      for (const [path, percent] of percents) {
        if (isNum(percent) && percent < 0)
          errors.push(problem(path, 'NG-BR-08', `The tax percent is ${percent}: a tax rate is 0 or more`))
      }
    })
  })
}

export function checkRules(input: unknown, ctx: RuleContext): RuleFindings {
  const errors: Problem[] = []
  const arithmetic: Problem[] = []
  const warnings: Problem[] = []
  const invoice = obj(input)
  if (!invoice) return { errors, arithmetic, warnings }
  checkIrns(invoice, ctx, errors)
  checkCodes(invoice, ctx, errors, warnings)
  checkBillingReference(invoice, errors)
  checkSigns(invoice, errors)
  checkDates(invoice, arithmetic)
  checkArithmetic(invoice, arithmetic)
  return { errors, arithmetic, warnings }
}
