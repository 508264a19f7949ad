import { SaxesParser } from 'saxes'

/**
 * The XML reader for documents sent to us (UBL in, CONTRACT 22): the counterpart of xml.ts, which
 * writes them. saxes is strict (XML 1.0 well-formedness, namespaces) and never resolves an entity
 * beyond XML's five and character references, so an external entity cannot be fetched nor an
 * entity expanded into a billion laughs; a DOCTYPE is refused outright rather than skipped, since a
 * document that declares one expects it honoured. Depth and element count are bounded here; the
 * caller bounds the size in bytes before reading.
 */

/** One element of a document read: names, attributes, children and its own text. */
export interface XmlElement {
  /** The local name, `InvoiceLine`. */
  name: string
  /** The namespace URI ('' when none). */
  ns: string
  /** Attributes by local name (namespaced attributes other than xmlns keep their prefix). */
  attributes: Record<string, string>
  children: XmlElement[]
  /** The element's own text, its children's excluded, as written (not trimmed). */
  text: string
  /** Where it is, as an XPath with the usual UBL prefixes: `/Invoice/cac:InvoiceLine[2]/cbc:ID`. */
  path: string
}

export interface XmlLimits {
  /** Deepest nesting allowed (the root is depth 1). UBL needs about 10. */
  maxDepth: number
  /** Most elements in one document. */
  maxElements: number
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxDepth: 32, maxElements: 200_000 }

export type XmlRefusal = 'malformed' | 'doctype' | 'too_deep' | 'too_many_elements'

/** Why a document could not be read, and where (line and column of the parser, path when known). */
export class XmlReadError extends Error {
  constructor(
    readonly reason: XmlRefusal,
    message: string,
    readonly line: number,
    readonly column: number,
    readonly path: string,
  ) {
    super(message)
    this.name = 'XmlReadError'
  }
}

/** The prefixes paths are written with, whatever prefixes the document itself chose. */
const PREFIXES: Record<string, string> = {
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext',
}

const XMLNS = 'http://www.w3.org/2000/xmlns/'

/** Reads a document into its element tree, or throws XmlReadError saying why and where. */
export function readXml(source: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true })
  const open: XmlElement[] = []
  let root: XmlElement | undefined
  let count = 0
  const refuse = (reason: XmlRefusal, message: string): never => {
    throw new XmlReadError(reason, message, parser.line, parser.column, open.map(segmentOf).join('/'))
  }

  parser.on('doctype', () =>
    refuse(
      'doctype',
      'The document declares a DOCTYPE: send UBL without one (DTDs and entities are not read).',
    ),
  )
  parser.on('opentag', (tag) => {
    count += 1
    if (count > limits.maxElements)
      refuse('too_many_elements', `The document has more than ${limits.maxElements} elements.`)
    if (open.length >= limits.maxDepth)
      refuse('too_deep', `The document nests elements deeper than ${limits.maxDepth}.`)
    const attributes: Record<string, string> = {}
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === XMLNS || attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue
      attributes[attribute.uri ? attribute.name : attribute.local] = attribute.value
    }
    const element: XmlElement = { name: tag.local, ns: tag.uri, attributes, children: [], text: '', path: '' }
    const parent = open.at(-1)
    if (parent) parent.children.push(element)
    else root = element
    open.push(element)
  })
  parser.on('text', (text) => {
    const current = open.at(-1)
    if (current) current.text += text
  })
  parser.on('cdata', (text) => {
    const current = open.at(-1)
    if (current) current.text += text
  })
  parser.on('closetag', () => {
    open.pop()
  })
  parser.on('error', (error) => refuse('malformed', `The document is not well-formed XML: ${error.message}`))

  parser.write(source).close()
  if (!root) refuse('malformed', 'The document has no root element.')
  assignPaths(root!, '')
  return root!
}

const segmentOf = (element: XmlElement): string => {
  const prefix = PREFIXES[element.ns]
  return prefix ? `${prefix}:${element.name}` : element.name
}

/** Paths are given after reading, when each element's same-named siblings are known: `[n]` only where they repeat. */
function assignPaths(element: XmlElement, parentPath: string, position?: number): void {
  element.path = `${parentPath}/${segmentOf(element)}${position ? `[${position}]` : ''}`
  const seen = new Map<string, number>()
  const repeated = new Map<string, number>()
  for (const child of element.children) {
    const key = `${child.ns} ${child.name}`
    repeated.set(key, (repeated.get(key) ?? 0) + 1)
  }
  for (const child of element.children) {
    const key = `${child.ns} ${child.name}`
    const index = (seen.get(key) ?? 0) + 1
    seen.set(key, index)
    assignPaths(child, element.path, (repeated.get(key) ?? 0) > 1 ? index : undefined)
  }
}
