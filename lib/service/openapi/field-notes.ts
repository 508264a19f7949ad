import { readFileSync } from 'node:fs'

/**
 * Descriptions of the invoice's fields, read from the spec's own tables (docs/interface.md, A.2 to
 * A.5) when the document is generated, so the reference says what the spec says, in one place. A
 * field the tables leave without a note is described by its type and whether it is required there.
 * The few fields the spec's tables do not list (the contract's additions) are described here.
 */

type Json = Record<string, unknown>

const SPEC = new URL('../../../docs/interface.md', import.meta.url)

const ADDITIONS: Record<string, string> = {
  id: "Party id, as the authority's samples send it (stored as given)",
  postal_address_id: "Postal address id, as the authority's samples send it (stored as given)",
  tax_category_percent:
    "Carried by the authority's sample request; informational (the rule uses tax_category.percent)",
  hour: 'Hour, 0 to 23',
  minute: 'Minute, 0 to 59',
  second: 'Second, 0 to 59',
  nano: 'Nanoseconds',
  start_date: 'Start of the delivery period (date)',
  end_date: 'End of the delivery period (date)',
}

/** The rows of the first table after the heading that starts with `heading`. */
function tableAfter(lines: string[], heading: string): string[][] {
  const start = lines.findIndex((l) => l.startsWith(heading))
  if (start < 0) throw new Error(`docs/interface.md: no section "${heading}"`)
  const rows: string[][] = []
  let i = lines.findIndex((l, n) => n > start && l.startsWith('|'))
  for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(
      lines[i]!.split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
  }
  return rows
}

const clean = (text: string) => text.replaceAll('`', '').trim()

/** `name` (type, Y): the sub-fields listed inside a cell, with what the parentheses say. */
function inlineFields(cell: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of cell.matchAll(/`?(\w+)`? \(([^)]*)\)/g)) out[m[1]!] = clean(m[2]!)
  return out
}

function rowNotes(rows: string[][]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const cells of rows) {
    const [field, type, req, notes] = cells.length === 2 ? [cells[0], '', '', cells[1]] : cells
    if (!field) continue
    const required = req ? ` (required: ${clean(req)})` : ''
    out[clean(field)] = clean(notes ?? '') || `${clean(type ?? '')}${required}`
  }
  return out
}

/** Field descriptions by component name. */
export function specFieldNotes(text = readFileSync(SPEC, 'utf8')): Record<string, Record<string, string>> {
  const lines = text.split('\n')
  const invoice = rowNotes(tableAfter(lines, '### A.2'))
  const party = rowNotes(tableAfter(lines, '### A.3'))
  const address = rowNotes(tableAfter(lines, 'PostalAddress: all six'))
  const lineRows = tableAfter(lines, '### A.4')
  const line = rowNotes(lineRows)
  const structures = Object.fromEntries(
    tableAfter(lines, '### A.5').map(([name, fields]) => [clean(name!).split(' ')[0]!, fields ?? '']),
  )
  const subFields = (name: string) => {
    const row = lineRows.find((r) => clean(r[0]!) === name)
    return row ? inlineFields(row[3]!) : {}
  }
  const moneyFields = (name: string, fallback: string) => {
    const listed = inlineFields(structures[name] ?? '')
    const names = (structures[name] ?? '').split(/,\s*/).map((n) => n.replace(/\s*\(.*$/, '').trim())
    return Object.fromEntries(names.filter(Boolean).map((n) => [n, listed[n] ?? fallback]))
  }
  const docRef = inlineFields(lines.find((l) => l.startsWith('DocumentRef:')) ?? '')
  const notes: Record<string, Record<string, string>> = {
    ValidateInvoiceRequest: invoice,
    Party: party,
    TaxRepresentativeParty: party,
    PostalAddress: address,
    InvoiceLine: line,
    Item: subFields('item'),
    Price: subFields('price'),
    DocumentRef: docRef,
    PaymentMeans: moneyFields('PaymentMeans', 'string'),
    AllowanceCharge: moneyFields('AllowanceCharge', 'number'),
    TaxTotal: moneyFields('TaxTotal', 'number'),
    TaxSubtotal: moneyFields('TaxSubtotal', 'number'),
    TaxCategory: moneyFields('TaxCategory', 'string'),
    LegalMonetaryTotal: moneyFields('LegalMonetaryTotal', 'number (all numbers)'),
  }
  for (const name of [
    'ValidateInvoiceRequest',
    'Party',
    'TaxRepresentativeParty',
    'PostalAddress',
    'InvoiceLine',
  ]) {
    notes[`${name}V2`] = notes[name]!
  }
  return notes
}

function describe(schema: Json, notes: Record<string, string>) {
  const properties = schema.properties as Record<string, Json> | undefined
  for (const [name, property] of Object.entries(properties ?? {})) {
    const description = notes[name] ?? ADDITIONS[name]
    if (description && property.description === undefined) {
      // A $ref takes siblings in OpenAPI 3.1 (JSON Schema 2020-12): the description sits beside it.
      property.description = description
    }
    // Inline objects (invoice_delivery_period, issue_time's LocalTime form) get theirs too.
    for (const inner of [property, ...((property.anyOf as Json[]) ?? [])]) {
      if (inner.type === 'object') describe(inner, ADDITIONS)
    }
  }
}

/** The components, each invoice part's properties described from the spec. */
export function describeInvoiceFields(schemas: Record<string, Json>): Record<string, Json> {
  const notes = specFieldNotes()
  for (const [name, fields] of Object.entries(notes)) {
    if (schemas[name]) describe(schemas[name]!, fields)
  }
  if (schemas.LocalTime) describe(schemas.LocalTime, ADDITIONS)
  return schemas
}
