import { describe, expect, it } from 'vitest'
import { readXml, XmlReadError } from '#lib/documents/xml-reader.ts'

const UBL = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:a="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:b="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <b:ID>INV-1</b:ID>
  <a:InvoiceLine><b:ID>1</b:ID><b:InvoicedQuantity unitCode="EA">2</b:InvoicedQuantity></a:InvoiceLine>
  <a:InvoiceLine><b:ID><![CDATA[2 & more]]></b:ID></a:InvoiceLine>
</Invoice>`

const refusal = (source: string, limits?: Parameters<typeof readXml>[1]) => {
  try {
    readXml(source, limits)
  } catch (error) {
    if (error instanceof XmlReadError) return error
    throw error
  }
  throw new Error('read without refusal')
}

describe('readXml', () => {
  it('reads names, namespaces, attributes and text, with paths in the usual prefixes whatever the document chose', () => {
    const root = readXml(UBL)
    expect(root).toMatchObject({
      name: 'Invoice',
      ns: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      path: '/Invoice',
    })
    const [id, line1, line2] = root.children
    expect(id).toMatchObject({ text: 'INV-1', path: '/Invoice/cbc:ID' })
    expect(line1!.path).toBe('/Invoice/cac:InvoiceLine[1]')
    expect(line1!.children[1]).toMatchObject({
      attributes: { unitCode: 'EA' },
      text: '2',
      path: '/Invoice/cac:InvoiceLine[1]/cbc:InvoicedQuantity',
    })
    expect(line2!.children[0]).toMatchObject({ text: '2 & more', path: '/Invoice/cac:InvoiceLine[2]/cbc:ID' })
  })

  it('refuses a DOCTYPE before any entity in it is read: no external entity is fetched, no expansion', () => {
    const external =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice>&e;</Invoice>'
    expect(refusal(external).reason).toBe('doctype')
    const laughs = `<!DOCTYPE l [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Invoice>&b;</Invoice>`
    expect(refusal(laughs).reason).toBe('doctype')
  })

  it('refuses an entity that was never declared, and malformed XML, with the line', () => {
    expect(refusal('<Invoice>&e;</Invoice>').reason).toBe('malformed')
    const broken = refusal('<Invoice>\n<ID>1</Invoice>')
    expect(broken.reason).toBe('malformed')
    expect(broken.line).toBe(2)
    expect(refusal('').reason).toBe('malformed')
  })

  it('bounds depth and element count, naming where it stopped', () => {
    const deep = `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`
    const tooDeep = refusal(deep)
    expect(tooDeep.reason).toBe('too_deep')
    expect(tooDeep.path.split('/')).toHaveLength(32)
    const many = `<r>${'<x/>'.repeat(11)}</r>`
    expect(refusal(many, { maxDepth: 32, maxElements: 10 }).reason).toBe('too_many_elements')
  })
})
