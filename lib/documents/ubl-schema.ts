import type { XmlElement } from './xml-reader.ts'

/**
 * The OASIS UBL 2.1 schema check of an Invoice or CreditNote read by xml-reader.ts, from the compact
 * model generated from the XSDs (scripts/ubl-schema-model.ts, lib/documents/ubl-schema-model.json):
 * element order and cardinality of every aggregate (each a plain sequence in UBL 2.1), no stray
 * text in an aggregate, no element inside a value, the value space of each basic component
 * (decimal, date, time, boolean, base64Binary; strings as they are) and its attributes (required
 * ones present, none the type does not declare). The extension content (ext:UBLExtensions) is
 * `processContents="lax"` anything in the XSD and is not looked into. Linear in the document's size.
 * test/unit/documents/ubl-schema.test.ts holds it to libxml2's XSD validator on valid documents and
 * mutations of them.
 */

type Particle = [qname: string, min: number, max: number]
export interface UblSchemaModel {
  roots: Record<string, string>
  aggregates: Record<string, Particle[]>
  elements: Record<string, string>
  data: Record<string, [space: string, attributes: Record<string, 0 | 1>]>
}

export interface SchemaProblem {
  /** The XPath of the element at fault (of where a missing one belongs). */
  path: string
  message: string
}

const NAMESPACES: Record<string, string> = {
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext',
}
const ROOT_NAMESPACES: Record<string, string> = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
}

const qnameOf = (element: XmlElement): string | undefined => {
  const prefix = NAMESPACES[element.ns]
  return prefix ? `${prefix}:${element.name}` : undefined
}
const shown = (element: XmlElement) =>
  qnameOf(element) ??
  (ROOT_NAMESPACES[element.name] === element.ns ? element.name : `{${element.ns}}${element.name}`)

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const TIMEZONE = '(Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))?'
const DATE = new RegExp(`^(-?\\d{4,})-(\\d\\d)-(\\d\\d)${TIMEZONE}$`)
const TIME = new RegExp(`^(?:([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?|24:00:00(?:\\.0+)?)${TIMEZONE}$`)

function validDate(value: string): boolean {
  const match = DATE.exec(value)
  if (!match) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (year === 0 || month < 1 || month > 12 || day < 1) return false
  return day <= (month === 2 && !leap(year) ? 28 : DAYS[month - 1]!)
}

/** XSD's lexical spaces, after the whitespace collapse every non-string type applies. */
const VALUE_SPACES: Record<string, { test: (value: string) => boolean; says: string }> = {
  decimal: { test: (v) => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v), says: 'a decimal number (no exponent)' },
  date: { test: validDate, says: 'a date, YYYY-MM-DD' },
  time: { test: (v) => TIME.test(v), says: 'a time, hh:mm:ss' },
  boolean: { test: (v) => /^(true|false|1|0)$/.test(v), says: 'true or false' },
  base64Binary: {
    test: (v) => /^[A-Za-z0-9+/ ]*=? ?=?$/.test(v) && v.replace(/ /g, '').length % 4 === 0,
    says: 'base64',
  },
}

/** The schema problems of a document, at most `max` (then the check stops); [] when it is valid. */
export function ublSchemaProblems(root: XmlElement, model: UblSchemaModel, max = 100): SchemaProblem[] {
  const problems: SchemaProblem[] = []
  const add = (path: string, message: string) => {
    if (problems.length < max) problems.push({ path, message })
  }
  const rootType = model.roots[root.name]
  if (!rootType || root.ns !== ROOT_NAMESPACES[root.name]) {
    add(
      root.path,
      `The root element is {${root.ns}}${root.name}: send a UBL 2.1 Invoice or CreditNote (namespace ${ROOT_NAMESPACES.Invoice} or ${ROOT_NAMESPACES.CreditNote})`,
    )
    return problems
  }
  const pending: [XmlElement, string][] = [[root, rootType]]
  while (pending.length && problems.length < max) {
    const [element, type] = pending.pop()!
    const particles = model.aggregates[type]
    if (particles) {
      checkAggregate(element, particles, add)
      for (const c of element.children) {
        const childType = model.elements[qnameOf(c) ?? '']
        if (childType && childType !== 'ext' && particles.some(([q]) => q === qnameOf(c)))
          pending.push([c, childType])
      }
    } else {
      checkValue(element, model.data[type]!, add)
    }
  }
  return problems
}

function checkAggregate(
  element: XmlElement,
  particles: readonly Particle[],
  add: (path: string, message: string) => void,
) {
  if (element.text.trim()) add(element.path, `${shown(element)} holds text: it may hold only elements`)
  for (const name of Object.keys(element.attributes)) {
    if (!name.includes(':'))
      add(element.path, `${shown(element)} has an attribute ${name} the schema does not declare`)
  }
  const missing = (from: number, to: number, count: number) => {
    for (let k = from; k < to; k++) {
      const [qname, min] = particles[k]!
      const have = k === from ? count : 0
      if (have < min)
        add(`${element.path}/${qname}`, `${qname} is required in ${shown(element)} and is missing`)
    }
  }
  let p = 0
  let count = 0
  for (const c of element.children) {
    const qname = qnameOf(c)
    const current = particles[p]
    if (current && qname === current[0]) {
      count += 1
      if (current[2] && count > current[2])
        add(c.path, `${qname} may occur at most ${current[2]} time(s) in ${shown(element)}`)
      continue
    }
    let j = p + 1
    while (j < particles.length && particles[j]![0] !== qname) j++
    if (j === particles.length) {
      const earlier = qname === undefined ? -1 : particles.findIndex(([q]) => q === qname)
      add(
        c.path,
        earlier >= 0
          ? `${qname} is out of order in ${shown(element)}: it must come before ${particles[p]![0]} (the UBL 2.1 sequence)`
          : `${shown(c)} is not an element of ${shown(element)} in UBL 2.1`,
      )
      continue
    }
    missing(p, j, count)
    p = j
    count = 1
  }
  missing(p, particles.length, count)
}

function checkValue(
  element: XmlElement,
  [space, attributes]: [string, Record<string, 0 | 1>],
  add: (path: string, message: string) => void,
) {
  if (element.children.length)
    add(element.children[0]!.path, `${shown(element)} is a value: it may not hold elements`)
  for (const name of Object.keys(element.attributes)) {
    if (!name.includes(':') && attributes[name] === undefined)
      add(element.path, `${shown(element)} has an attribute ${name} the schema does not declare`)
  }
  for (const [name, required] of Object.entries(attributes)) {
    if (required && element.attributes[name] === undefined)
      add(element.path, `${shown(element)} requires the attribute ${name}`)
  }
  const rule = VALUE_SPACES[space]
  if (rule) {
    const value = element.text.replace(/[\t\n\r ]+/g, ' ').trim()
    if (!rule.test(value)) add(element.path, `${shown(element)} is "${value.slice(0, 40)}", not ${rule.says}`)
  }
}
