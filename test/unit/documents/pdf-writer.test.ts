import { inflateSync } from 'node:zlib'
import { PDFDocument, PDFName, type PDFRawStream, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { type FontName, winAnsiBytes } from '#lib/documents/helvetica.ts'
import { invoicePdf } from '#lib/documents/pdf.ts'
import { PdfDocument, pdfNumber, widthOf } from '#lib/documents/pdf-writer.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { contentOperations, shownStrings, xrefProblems } from '../../support/pdf-read.ts'

/**
 * The PDF writer (lib/documents/pdf-writer.ts) and the invoice page on it, at their edges: whatever
 * text goes in, the file opens in a real parser (pdf-lib), its cross-reference table points at its
 * objects, every content stream parses into operators (test/support/pdf-read.ts, written from the
 * specification) and shows exactly the text asked for, as the standard fonts can show it.
 */

const HOSTILE = [
  'Acme (Nigeria) Ltd',
  'unbalanced ) close',
  'unbalanced ( open',
  ')(',
  'back\\slash \\) \\( \\\\',
  'ends with a backslash \\',
  '%% not a comment',
  'ET Q endstream endobj %%EOF',
  'line\nbreak\rcarriage\ttab\u0000nul\u007fdel',
  'Ọbáfẹ́mi Àjàyí ṣe (Yoruba)',
  'Ƙwarai (Hausa)',
  '北京 商贸 有限公司',
  'شركة',
  '😀 emoji \u{1F9FE}',
  'lone \uD800 surrogate',
  '€ “quoted” – dash — Œuvre ™',
]

/** Every page's decompressed content stream, read out of the file by pdf-lib. */
async function pagesOf(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false })
  return {
    doc,
    contents: doc.getPages().map((page) => {
      const stream = page.node.Contents() as PDFRawStream
      expect(stream.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'))
      return inflateSync(stream.contents)
    }),
  }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1')

describe('winAnsiBytes', () => {
  it('maps WinAnsi 0x80-0x9F as Windows-1252 does, and Latin-1 as itself', () => {
    const cp1252 = new TextDecoder('windows-1252')
    for (let code = 0x20; code <= 0xff; code++) {
      const c = cp1252.decode(Uint8Array.of(code))
      // WHATWG decodes the five codes 1252 leaves undefined (and 0x7F) to C1 controls: those are not text.
      if (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f) continue
      expect([...winAnsiBytes(c)], `U+${c.codePointAt(0)!.toString(16)}`).toEqual([code])
    }
  })

  it('keeps the base letter of a mark it lacks, and puts "?" or a space for what it cannot show', () => {
    expect(latin1(winAnsiBytes('Ọbáfẹ́mi ṣe'))).toBe('Obáfemi se')
    expect(latin1(winAnsiBytes('e\u0301 \u0301'))).toBe('é ')
    expect(latin1(winAnsiBytes('Ƙ 北京 😀 \uD800'))).toBe('? ?? ? ?')
    expect(latin1(winAnsiBytes('a\nb\rc\td\u0000e\u007f'))).toBe('a b c d e ')
    expect(latin1(winAnsiBytes('ﬁ ½'))).toBe('fi ½')
  })
})

describe('the Helvetica widths', () => {
  it("are the AFM widths pdf-lib's standard-font metrics give, for every character WinAnsi has", async () => {
    const doc = await PDFDocument.create()
    let compared = 0
    for (const [name, font] of [
      ['Helvetica', StandardFonts.Helvetica],
      ['Helvetica-Bold', StandardFonts.HelveticaBold],
    ] as [FontName, StandardFonts][]) {
      const theirs = await doc.embedFont(font)
      for (const c of theirs.getCharacterSet().map((code) => String.fromCodePoint(code))) {
        if (winAnsiBytes(c).length !== 1 || c.codePointAt(0)! < 0x20) continue
        expect(widthOf(c, 1000, name), `${name} ${JSON.stringify(c)}`).toBe(theirs.widthOfTextAtSize(c, 1000))
        compared++
      }
    }
    expect(compared).toBe(2 * 218) // WinAnsi's 218 printable characters, in each font
    expect(widthOf('Hello', 10)).toBeCloseTo(22.78) // H 722, e 556, l 222, l 222, o 556
  })
})

describe('PdfDocument', () => {
  it('shows hostile text exactly as WinAnsi has it, in a file a parser opens with a right xref', async () => {
    const write = () => {
      const writer = new PdfDocument({
        title: 'Title (with) \\ parentheses ) and 北京',
        producer: 'test',
        creator: 'test',
        date: new Date('2026-11-21T08:09:10.999Z'),
      })
      const page = writer.addPage()
      for (const [i, text] of HOSTILE.entries()) {
        page.text(text, 40, 800 - 14 * i, { size: 9, font: i % 2 ? 'Helvetica-Bold' : 'Helvetica' })
      }
      page.line(40, 100, 500, 100, { width: 0.5, gray: 0.4 })
      page.rect(40, 50, 100, 20, { gray: 0.9 })
      page.rect(40, 50, 100, 20, { stroke: 1 })
      return writer.save()
    }
    const pdf = write()
    expect(Buffer.from(write()).equals(Buffer.from(pdf)), 'the same calls give the same bytes').toBe(true)

    expect(xrefProblems(pdf)).toEqual([])
    const { doc, contents } = await pagesOf(pdf)
    expect(doc.getTitle()).toBe('Title (with) \\ parentheses ) and ??')
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-21T08:09:10.000Z')
    expect(doc.getModificationDate()?.toISOString()).toBe('2026-11-21T08:09:10.000Z')
    expect(shownStrings(contents[0]!)).toEqual(HOSTILE.map((text) => latin1(winAnsiBytes(text))))
    const operators = contentOperations(contents[0]!).map((op) => op.operator)
    expect(operators.filter((op) => op === 'BT')).toHaveLength(HOSTILE.length)
    expect(operators.filter((op) => op === 'ET')).toHaveLength(HOSTILE.length)
    expect(operators).toEqual(expect.arrayContaining(['m', 'l', 'S', 're', 'f']))
    // The content stream is 7-bit text: every byte beyond ASCII went in as an escape.
    expect(contents[0]!.every((b) => b < 0x80)).toBe(true)
  })

  it('writes grey images at 1 and 8 bits per component, unsmoothed, and refuses a raster of the wrong size', async () => {
    const writer = new PdfDocument({ title: 't', producer: 'p', creator: 'c', date: new Date(0) })
    const page = writer.addPage()
    const one = writer.addImage({
      width: 10,
      height: 2,
      bitsPerComponent: 1,
      pixels: Uint8Array.of(0, 0x3f, 0xff, 0xc0),
    })
    const eight = writer.addImage({
      width: 2,
      height: 2,
      bitsPerComponent: 8,
      pixels: Uint8Array.of(0, 85, 170, 255),
    })
    page.image(one, 10, 20, 100, 20)
    page.image(eight, 200, 20, 50, 50)
    expect(() =>
      writer.addImage({ width: 9, height: 2, bitsPerComponent: 1, pixels: Uint8Array.of(0, 0, 0) }),
    ).toThrow(/needs 4 bytes/)
    const pdf = writer.save()
    expect(xrefProblems(pdf)).toEqual([])
    const { doc, contents } = await pagesOf(pdf)
    const draws = contentOperations(contents[0]!).filter((op) => op.operator === 'cm' || op.operator === 'Do')
    expect(draws.map((op) => op.operands)).toEqual([
      [100, 0, 0, 20, 10, 20],
      [{ name: 'Im1' }],
      [50, 0, 0, 50, 200, 20],
      [{ name: 'Im2' }],
    ])
    const images = doc.getPage(0).node.Resources()!.lookup(PDFName.of('XObject')) as any
    const read = (name: string) => doc.context.lookup(images.get(PDFName.of(name))) as PDFRawStream
    for (const [name, bits, pixels] of [
      ['Im1', 1, [0, 0x3f, 0xff, 0xc0]],
      ['Im2', 8, [0, 85, 170, 255]],
    ] as const) {
      const image = read(name)
      expect(image.dict.get(PDFName.of('BitsPerComponent'))?.toString()).toBe(String(bits))
      expect(image.dict.get(PDFName.of('ColorSpace'))).toBe(PDFName.of('DeviceGray'))
      expect(image.dict.get(PDFName.of('Interpolate'))?.toString()).toBe('false')
      expect([...inflateSync(image.contents)]).toEqual(pixels)
    }
  })

  it('writes numbers as plain decimals, never an exponent, -0 or NaN', () => {
    expect(
      [0, -0, 1.5, 595.28, 1 / 3, -0.0001, 1e-9, Number.NaN, Number.POSITIVE_INFINITY].map(pdfNumber),
    ).toEqual(['0', '0', '1.5', '595.28', '0.333', '0', '0', '0', '0'])
    expect([1e25, -1e25].map(pdfNumber)).toEqual(['32767', '-32767'])
  })

  it('has a cross-reference check that catches an offset one byte out', () => {
    const writer = new PdfDocument({ title: 't', producer: 'p', creator: 'c', date: new Date(0) })
    writer.addPage().text('x', 10, 10, { size: 9 })
    const pdf = Buffer.from(writer.save())
    expect(xrefProblems(pdf)).toEqual([])
    const shifted = Buffer.concat([pdf.subarray(0, 20), Buffer.from(' '), pdf.subarray(20)])
    expect(xrefProblems(shifted).length).toBeGreaterThan(0)
  })
})

describe('invoicePdf with hostile invoices', () => {
  const irn = 'INV0A1B2C3D4E5F-94ND90NR-20261121'
  const hostileInvoice = () => {
    const invoice = buildInvoice({
      irn,
      lines: Array.from({ length: 120 }, () => ({ quantity: 1, price: 10 })),
    })
    invoice.accounting_supplier_party.party_name = HOSTILE.join(' ')
    invoice.accounting_customer_party.party_name = `${'Very long (buyer) name \\ '.repeat(40)}END`
    invoice.invoice_line.forEach((line: any, i: number) => {
      line.item.name = HOSTILE[i % HOSTILE.length]!.repeat(i % 3 ? 1 : 30)
      line.item.description = `${'))) ((( '.repeat(i)}\\`
    })
    return invoice
  }
  const invoice = hostileInvoice()
  const render = () =>
    invoicePdf({
      irn,
      invoice,
      qrText: 'qr (text) \\',
      signedAt: '2026-11-21T10:11:12.345Z',
    })

  it('opens in a parser on every page, cuts long names to their column with "..." and gives the same bytes twice', async () => {
    const pdf = render()
    expect(Buffer.from(render()).equals(Buffer.from(pdf))).toBe(true)
    expect(xrefProblems(pdf)).toEqual([])
    const { doc, contents } = await pagesOf(pdf)
    expect(doc.getPageCount()).toBeGreaterThan(2)
    const shown = contents.flatMap(shownStrings)
    // Every page's footer, on every page.
    expect(contents.map((c) => shownStrings(c)[0])).toEqual(
      contents.map(() => `IRN ${irn} - signed 2026-11-21T10:11:12.345Z`),
    )
    const supplier = latin1(winAnsiBytes(HOSTILE.join(' ')))
    const printedSupplier = shown.find((s) => s.startsWith('Acme (Nigeria)'))!
    expect(printedSupplier.endsWith('...')).toBe(true)
    expect(supplier.startsWith(printedSupplier.slice(0, -3))).toBe(true)
    expect(shown.filter((s) => s.startsWith('Very long (buyer) name \\'))).toHaveLength(1)
    expect(shown.filter((s) => s.endsWith('...')).length).toBeGreaterThan(40)
    // Nothing runs off the page: each string starts and ends inside the 15 mm margins, at its size.
    const margin = (15 * 72) / 25.4 - 0.01
    for (const content of contents) {
      let size = 0
      let font: FontName = 'Helvetica'
      let x = 0
      for (const op of contentOperations(content)) {
        if (op.operator === 'Tf') {
          size = op.operands[1] as number
          font = (op.operands[0] as { name: string }).name === 'F2' ? 'Helvetica-Bold' : 'Helvetica'
        }
        if (op.operator === 'Td') x = op.operands[0] as number
        if (op.operator === 'Tj') {
          const width = widthOf(Buffer.from(op.operands[0] as string, 'latin1'), size, font)
          expect(x).toBeGreaterThanOrEqual(margin)
          expect(x + width).toBeLessThanOrEqual(595.28 - margin)
        }
      }
    }
  })
})
