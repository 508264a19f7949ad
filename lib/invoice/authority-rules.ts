import type { Problem } from '#lib/platform/errors.ts'
import { problem } from './problems.ts'
import { PARTIES } from './rules.ts'

/**
 * The authority's request rules where its documentation is more lenient than the interface (CONTRACT
 * 17), as defaults applied to the raw request before the schema sees it, each named in `warnings`
 * (the paths say which field): payment_status PENDING, tax_currency_code the document currency, a
 * line's discount and fee fields 0, a numeric code its string; and an address without lga or state.
 * The request is copied where it changes, never written to. The other relaxed rules: the schema's
 * optional lga and state (schemas.ts), the classification codes as warnings (rules.ts).
 */

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined

export function withAuthorityDefaults(input: unknown): { body: unknown; applied: Problem[] } {
  const applied: Problem[] = []
  const invoice = obj(input)
  if (!invoice) return { body: input, applied }
  const body: Obj = { ...invoice }
  /** A code sent as a number (`"payment_means_code": 10`), as its string. */
  const asString = (o: Obj, key: string, path: string) => {
    const v = o[key]
    if (typeof v !== 'number') return
    o[key] = String(v)
    applied.push(problem(path + key, 'NG-AU-04', `the number ${v} taken as "${v}"`))
  }
  /** Each object of an array, copied for `change` to set its fields. */
  const eachCopied = (key: string, change: (o: Obj, path: string) => void) => {
    const items = body[key]
    if (!Array.isArray(items)) return
    body[key] = items.map((item, i) => {
      const copy = obj(item) && { ...item }
      if (copy) change(copy, `${key}/${i}/`)
      return copy ?? item
    })
  }
  if (body.payment_status === undefined) {
    body.payment_status = 'PENDING'
    applied.push(problem('payment_status', 'NG-AU-01', 'absent: PENDING applied'))
  }
  const currency = body.document_currency_code
  if (body.tax_currency_code === undefined && typeof currency === 'string') {
    body.tax_currency_code = currency
    applied.push(
      problem('tax_currency_code', 'NG-AU-02', `absent: the document currency ${currency} applied`),
    )
  }
  asString(body, 'invoice_type_code', '')
  eachCopied('payment_means', (means, path) => asString(means, 'payment_means_code', path))
  eachCopied('invoice_line', (line, path) => {
    const absent = ['discount_rate', 'discount_amount', 'fee_rate', 'fee_amount'].filter(
      (k) => line[k] === undefined,
    )
    for (const key of absent) line[key] = 0
    if (absent.length)
      applied.push(problem(path.slice(0, -1), 'NG-AU-03', `${absent.join(', ')} absent: 0 applied`))
    asString(line, 'hsn_code', path)
    asString(line, 'isic_code', path)
  })
  for (const party of PARTIES) {
    const address = obj(obj(body[party])?.postal_address)
    const absent = address ? ['lga', 'state'].filter((k) => address[k] === undefined) : []
    if (absent.length)
      applied.push(problem(`${party}/postal_address`, 'NG-AU-05', `${absent.join(', ')} absent: accepted`))
  }
  return { body, applied }
}
