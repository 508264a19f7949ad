/**
 * A small XML writer for the UBL export: elements are built as strings, text and attribute values
 * escaped here and nowhere else. XML 1.0 cannot carry most control characters (not even as character
 * references) nor lone surrogates; a stored string may hold them, so they become U+FFFD rather than a
 * document no parser reads.
 */

// Every character XML 1.0 forbids: C0 controls but tab, LF and CR; lone surrogates (refused at the
// edge already, lib/platform/text/well-formed.ts); U+FFFE and U+FFFF.
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  // A literal CR or tab would be normalised away by a parser (and a CR in text read as LF).
  '\r': '&#13;',
  '\t': '&#9;',
  '\n': '&#10;',
}

const escapeText = (value: string) => value.replace(NOT_XML, '\uFFFD').replace(/[&<>\r]/g, (c) => ESCAPES[c]!)
const escapeAttribute = (value: string) =>
  value.replace(NOT_XML, '\uFFFD').replace(/[&<>"\r\t\n]/g, (c) => ESCAPES[c]!)

export type Attributes = Record<string, string | undefined>

const attributesOf = (attributes: Attributes | undefined) =>
  attributes
    ? Object.entries(attributes)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => ` ${name}="${escapeAttribute(value!)}"`)
        .join('')
    : ''

/** A text element; nothing at all when the value is absent. */
export function leaf(name: string, value: string | number | undefined, attributes?: Attributes): string {
  if (value === undefined) return ''
  return `<${name}${attributesOf(attributes)}>${escapeText(String(value))}</${name}>`
}

/** An element of elements; nothing at all when every child is empty (an optional aggregate left out). */
export function node(name: string, children: readonly string[], attributes?: Attributes): string {
  const content = children.join('')
  if (!content) return ''
  return `<${name}${attributesOf(attributes)}>${content}</${name}>`
}

/** Like node(), but kept when empty: for aggregates the schema requires. */
export const requiredNode = (name: string, children: readonly string[], attributes?: Attributes) =>
  node(name, children, attributes) || `<${name}${attributesOf(attributes)}/>`

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

/**
 * A JSON number as an xsd:decimal lexical form: never an exponent (String(1e-7) is "1e-7"),
 * exactly the digits of the number's shortest round-tripping form.
 */
export function decimalText(n: number): string {
  const text = String(n)
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, head, tail = '', exponentText] = match
  const digits = head! + tail
  const point = 1 + Number(exponentText)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** Moves the decimal point of a decimal text `places` to the left (a percent as a factor: 7.5 -> 0.075). */
export function shiftLeft(decimal: string, places: number): string {
  const negative = decimal.startsWith('-')
  const [int = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.')
  const padded = int.padStart(places + 1, '0')
  const whole = padded.slice(0, padded.length - places).replace(/^0+(?=\d)/, '')
  const fraction = (padded.slice(padded.length - places) + frac).replace(/0+$/, '')
  const result = fraction ? `${whole}.${fraction}` : whole
  return negative && result !== '0' ? `-${result}` : result
}
