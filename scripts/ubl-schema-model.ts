/**
 * Generates lib/documents/ubl-schema-model.json, the compact structural model of the OASIS UBL 2.1
 * Invoice and CreditNote schemas (data/standards/ubl-2.1) that lib/documents/ubl-schema.ts validates
 * with in Lambda, where libxml2's XSD validator (a 780 KB wasm) does not fit the bundle budget.
 *
 *   npx tsx scripts/ubl-schema-model.ts           (writes the model)
 *   npx tsx scripts/ubl-schema-model.ts --check   (fails when the committed model is not what the XSDs give)
 *
 * UBL 2.1's Invoice, CreditNote and CAC types are plain sequences of element references (no choice,
 * no group, no wildcard outside the extension content), each with minOccurs and maxOccurs; every CBC
 * element is a simple-content type extending an unqualified data type (udt), which restricts or
 * extends a CCTS core component type: a value space (decimal, date, ...) and its attributes, some
 * required. The model keeps exactly that, for the types reachable from the two roots:
 *   aggregates: type -> [[qualified element, min, max (0: unbounded)], ...]
 *   elements:   qualified element -> its aggregate type, or its data type
 *   data:       data type -> [value space, {attribute: 1 required / 0 optional}]
 * ext:UBLExtensions is kept as an opaque element (its content is `processContents="lax"` anything).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { UblSchemaModel } from '../lib/documents/ubl-schema.ts'
import { readXml, type XmlElement } from '../lib/documents/xml-reader.ts'

const ROOT = join(import.meta.dirname, '..')
const SCHEMA_DIR = join(ROOT, 'data/standards/ubl-2.1')
export const MODEL_FILE = join(ROOT, 'lib/documents/ubl-schema-model.json')

const XSD = 'http://www.w3.org/2001/XMLSchema'
const LIMITS = { maxDepth: 64, maxElements: 2_000_000 }

type Particle = UblSchemaModel['aggregates'][string][number]

const load = (file: string) => readXml(readFileSync(join(SCHEMA_DIR, file), 'utf8'), LIMITS)
const xsd = (at: XmlElement, name: string) => at.children.filter((c) => c.ns === XSD && c.name === name)
const stripPrefix = (qname: string) => qname.slice(qname.indexOf(':') + 1)

/** Named complex types and top-level elements of one schema. */
function indexOf(schema: XmlElement) {
  const types = new Map(xsd(schema, 'complexType').map((t) => [t.attributes.name!, t]))
  const elements = new Map(xsd(schema, 'element').map((e) => [e.attributes.name!, e.attributes.type!]))
  return { types, elements }
}

function sequenceOf(type: XmlElement): Particle[] {
  const [sequence] = xsd(type, 'sequence')
  if (!sequence) return []
  return xsd(sequence, 'element').map((e) => {
    const max = e.attributes.maxOccurs ?? '1'
    return [e.attributes.ref!, Number(e.attributes.minOccurs ?? '1'), max === 'unbounded' ? 0 : Number(max)]
  })
}

/** A CCTS or udt type's value space and attributes, following its base. */
function dataTypeOf(
  name: string,
  udt: Map<string, XmlElement>,
  ccts: Map<string, XmlElement>,
): [string, Record<string, 0 | 1>] {
  const resolve = (type: XmlElement, from: 'udt' | 'ccts'): [string, Record<string, 0 | 1>] => {
    const [content] = xsd(type, 'simpleContent')
    const derivation = content!.children.find((c) => c.ns === XSD)!
    const base = derivation.attributes.base!
    const [space, inherited] = base.startsWith('xsd:')
      ? [stripPrefix(base), {}]
      : resolve((from === 'udt' && base.startsWith('ccts-cct:') ? ccts : udt).get(stripPrefix(base))!, 'ccts')
    const attributes: Record<string, 0 | 1> = { ...inherited }
    for (const a of xsd(derivation, 'attribute')) {
      if (a.attributes.use === 'prohibited') delete attributes[a.attributes.name!]
      else attributes[a.attributes.name!] = a.attributes.use === 'required' ? 1 : 0
    }
    return [space, attributes]
  }
  return resolve(udt.get(name)!, 'udt')
}

export function buildModel(): UblSchemaModel {
  const cac = indexOf(load('common/UBL-CommonAggregateComponents-2.1.xsd'))
  const cbc = indexOf(load('common/UBL-CommonBasicComponents-2.1.xsd'))
  const udt = indexOf(load('common/UBL-UnqualifiedDataTypes-2.1.xsd')).types
  const ccts = indexOf(load('common/CCTS_CCT_SchemaModule-2.1.xsd')).types
  const mains = {
    Invoice: indexOf(load('maindoc/UBL-Invoice-2.1.xsd')),
    CreditNote: indexOf(load('maindoc/UBL-CreditNote-2.1.xsd')),
  }
  const model: UblSchemaModel = { roots: {}, aggregates: {}, elements: {}, data: {} }
  const pending: string[] = []
  const visit = (ref: string) => {
    if (ref in model.elements) return
    const [prefix, local] = ref.split(':') as [string, string]
    if (prefix === 'ext') {
      model.elements[ref] = 'ext'
    } else if (prefix === 'cac') {
      const type = stripPrefix(cac.elements.get(local)!)
      model.elements[ref] = type
      if (!(type in model.aggregates)) {
        model.aggregates[type] = sequenceOf(cac.types.get(type)!)
        pending.push(type)
      }
    } else if (prefix === 'cbc') {
      const cbcType = cbc.types.get(stripPrefix(cbc.elements.get(local)!))!
      const base = xsd(xsd(cbcType, 'simpleContent')[0]!, 'extension')[0]!.attributes.base!
      const data = stripPrefix(base)
      model.elements[ref] = data
      model.data[data] ??= dataTypeOf(data, udt, ccts)
    } else {
      throw new Error(`${ref}: a namespace the model does not know`)
    }
  }
  for (const [root, schema] of Object.entries(mains)) {
    const type = stripPrefix(schema.elements.get(root)!)
    model.roots[root] = type
    model.aggregates[type] = sequenceOf(schema.types.get(type)!)
    pending.push(type)
  }
  for (let type = pending.shift(); type; type = pending.shift())
    for (const [ref] of model.aggregates[type]!) visit(ref)
  return model
}

const modelText = (model: UblSchemaModel) => `${JSON.stringify(model)}\n`

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = modelText(buildModel())
  if (process.argv.includes('--check')) {
    if (JSON.stringify(JSON.parse(readFileSync(MODEL_FILE, 'utf8'))) !== text.trim()) {
      console.error(`${MODEL_FILE} is not what the XSDs give: run npx tsx scripts/ubl-schema-model.ts`)
      process.exit(1)
    }
    console.log('UBL schema model up to date')
  } else {
    writeFileSync(MODEL_FILE, text)
    console.log(`${MODEL_FILE}: ${text.length} bytes`)
  }
}
