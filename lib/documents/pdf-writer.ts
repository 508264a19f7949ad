import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { type FontName, textWidth, winAnsiBytes } from './helvetica.ts'

/**
 * A small PDF 1.4 writer, for what the invoice page needs and no more: pages, text in the standard
 * Helvetica and Helvetica-Bold (named, not embedded: every reader has them), lines, rectangles, and
 * grey images (the QR code). A PDF library costs the invoice-pdf function more than its whole bundle
 * budget (BENCHMARKS.md, "Invoice documents"); this costs a few KB.
 *
 * What keeps the output valid whatever the invoice holds:
 * - every string a page shows goes through `pdfString`: WinAnsi bytes, with (, ) and \ escaped and every
 *   byte outside printable ASCII written as an octal escape, so no text can end a string, start an
 *   operator or carry a line break into the content stream;
 * - names of fonts and images are the writer's own (/F1, /Im1), never taken from the caller;
 * - the cross-reference table gives each object's byte offset as written.
 * Nothing comes from the clock or chance: the dates are the caller's, and the file identifier is a
 * hash of the file's own body, so the same calls give the same bytes.
 */

export const A4 = { width: 595.28, height: 841.89 }

/**
 * A number as a PDF operand: at most 3 decimals, never an exponent, never "-0" or NaN, and within the
 * +-32767 PDF 1.4 lets a reader limit reals to (Appendix C).
 */
export function pdfNumber(n: number): string {
  if (!Number.isFinite(n)) return '0'
  const fixed = Math.max(-32767, Math.min(32767, n))
    .toFixed(3)
    .replace(/\.?0+$/, '')
  return fixed === '-0' ? '0' : fixed
}

/** A PDF string literal of WinAnsi-encoded text (PDF 1.4 section 3.2.3). */
export function pdfString(bytes: Uint8Array): string {
  let out = '('
  for (const b of bytes) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += `\\${String.fromCharCode(b)}`
    else if (b >= 0x20 && b <= 0x7e) out += String.fromCharCode(b)
    else out += `\\${b.toString(8).padStart(3, '0')}`
  }
  return `${out})`
}

/** A date as PDF writes it (section 3.8.3), in UTC, to the second. */
export function pdfDate(date: Date): string {
  return `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`
}

/** A grey raster, rows top to bottom, each row padded to whole bytes; 0 is black. */
export interface GrayImage {
  width: number
  height: number
  bitsPerComponent: 1 | 8
  pixels: Uint8Array
}

/** An image added to the document, to draw on any of its pages. */
export interface ImageHandle {
  readonly name: string
}

const FONT_KEYS: Record<FontName, string> = { Helvetica: 'F1', 'Helvetica-Bold': 'F2' }

export interface TextOptions {
  size: number
  font?: FontName
  /** 0 black to 1 white. */
  gray?: number
}

export class PdfPage {
  readonly ops: string[] = []
  readonly fonts = new Set<FontName>()
  readonly images = new Set<string>()
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  /** Text with its baseline starting at (x, y); a string is encoded to WinAnsi first (`winAnsiBytes`). */
  text(
    value: string | Uint8Array,
    x: number,
    y: number,
    { size, font = 'Helvetica', gray = 0 }: TextOptions,
  ) {
    const bytes = typeof value === 'string' ? winAnsiBytes(value) : value
    this.fonts.add(font)
    const at = `${pdfNumber(x)} ${pdfNumber(y)}`
    this.ops.push(
      `BT /${FONT_KEYS[font]} ${pdfNumber(size)} Tf ${pdfNumber(gray)} g ${at} Td ${pdfString(bytes)} Tj ET`,
    )
  }

  line(x1: number, y1: number, x2: number, y2: number, { width = 1, gray = 0 } = {}) {
    const [a, b, c, d] = [x1, y1, x2, y2].map(pdfNumber)
    this.ops.push(`q ${pdfNumber(width)} w ${pdfNumber(gray)} G ${a} ${b} m ${c} ${d} l S Q`)
  }

  /** A rectangle from its lower left corner, filled (`gray`) or outlined (`stroke`, a line width). */
  rect(
    x: number,
    y: number,
    w: number,
    h: number,
    { gray = 0, stroke }: { gray?: number; stroke?: number } = {},
  ) {
    const box = [x, y, w, h].map(pdfNumber).join(' ')
    const paint =
      stroke === undefined
        ? `${pdfNumber(gray)} g ${box} re f`
        : `${pdfNumber(stroke)} w ${pdfNumber(gray)} G ${box} re S`
    this.ops.push(`q ${paint} Q`)
  }

  /** The image scaled to w x h points with its lower left corner at (x, y). */
  image(image: ImageHandle, x: number, y: number, w: number, h: number) {
    this.images.add(image.name)
    const matrix = [w, 0, 0, h, x, y].map(pdfNumber).join(' ')
    this.ops.push(`q ${matrix} cm /${image.name} Do Q`)
  }
}

export interface DocumentInfo {
  title: string
  producer: string
  creator: string
  /** Both the creation and the modification date. */
  date: Date
}

/** Width of `value` in points as `PdfPage.text` would draw it. */
export function widthOf(value: string | Uint8Array, size: number, font: FontName = 'Helvetica'): number {
  return textWidth(typeof value === 'string' ? winAnsiBytes(value) : value, size, font)
}

export class PdfDocument {
  private readonly pages: PdfPage[] = []
  private readonly images: { name: string; image: GrayImage }[] = []
  constructor(private readonly info: DocumentInfo) {}

  addPage(width = A4.width, height = A4.height): PdfPage {
    const page = new PdfPage(width, height)
    this.pages.push(page)
    return page
  }

  addImage(image: GrayImage): ImageHandle {
    const rowBytes = Math.ceil((image.width * image.bitsPerComponent) / 8)
    if (image.pixels.length !== rowBytes * image.height) {
      throw new Error(`An image of ${image.width} x ${image.height} needs ${rowBytes * image.height} bytes`)
    }
    const name = `Im${this.images.length + 1}`
    this.images.push({ name, image })
    return { name }
  }

  /** The whole file. */
  save(): Uint8Array {
    // Object numbers: 1 catalog, 2 page tree, 3 info, then fonts, images, and each page with its content.
    const fontsUsed = (Object.keys(FONT_KEYS) as FontName[]).filter((f) =>
      this.pages.some((p) => p.fonts.has(f)),
    )
    const fontIds = new Map(fontsUsed.map((font, i) => [font, 4 + i]))
    const imageIds = new Map(this.images.map(({ name }, i) => [name, 4 + fontsUsed.length + i]))
    const firstPage = 4 + fontsUsed.length + this.images.length
    const pageId = (i: number) => firstPage + 2 * i

    const objects: (string | { dict: string; data: Uint8Array })[] = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${this.pages.map((_, i) => `${pageId(i)} 0 R`).join(' ')}] /Count ${this.pages.length} >>`,
      [
        '<<',
        `/Title ${pdfString(winAnsiBytes(this.info.title))}`,
        `/Producer ${pdfString(winAnsiBytes(this.info.producer))}`,
        `/Creator ${pdfString(winAnsiBytes(this.info.creator))}`,
        `/CreationDate (${pdfDate(this.info.date)})`,
        `/ModDate (${pdfDate(this.info.date)})`,
        '>>',
      ].join(' '),
      ...fontsUsed.map(
        (font) => `<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`,
      ),
      ...this.images.map(({ image }) => ({
        dict: [
          '<< /Type /XObject /Subtype /Image',
          `/Width ${image.width} /Height ${image.height}`,
          `/ColorSpace /DeviceGray /BitsPerComponent ${image.bitsPerComponent}`,
          // A reader must not smooth the QR's module edges when it scales it up.
          '/Interpolate false /Filter /FlateDecode',
        ].join(' '),
        data: deflateSync(image.pixels),
      })),
      ...this.pages.flatMap((page, i) => {
        const fonts = [...page.fonts].map((f) => `/${FONT_KEYS[f]} ${fontIds.get(f)} 0 R`).join(' ')
        const images = [...page.images].map((name) => `/${name} ${imageIds.get(name)} 0 R`).join(' ')
        const resources = [
          fonts && `/Font << ${fonts} >>`,
          images && `/XObject << ${images} >>`,
          `/ProcSet [/PDF /Text${images ? ' /ImageB' : ''}]`,
        ]
        return [
          [
            '<< /Type /Page /Parent 2 0 R',
            `/MediaBox [0 0 ${pdfNumber(page.width)} ${pdfNumber(page.height)}]`,
            `/Resources << ${resources.filter(Boolean).join(' ')} >>`,
            `/Contents ${pageId(i) + 1} 0 R >>`,
          ].join(' '),
          { dict: '<< /Filter /FlateDecode', data: deflateSync(Buffer.from(page.ops.join('\n'), 'latin1')) },
        ]
      }),
    ]

    // The header's second line marks the file as binary for tools that guess (section 3.4.1).
    const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
    let length = chunks[0]!.length
    const push = (chunk: Buffer) => {
      chunks.push(chunk)
      length += chunk.length
    }
    const offsets: number[] = []
    for (const [i, object] of objects.entries()) {
      offsets.push(length)
      if (typeof object === 'string') push(Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, 'latin1'))
      else {
        push(
          Buffer.from(`${i + 1} 0 obj\n${object.dict} /Length ${object.data.length} >>\nstream\n`, 'latin1'),
        )
        push(Buffer.from(object.data))
        push(Buffer.from('\nendstream\nendobj\n', 'latin1'))
      }
    }
    const id = createHash('md5').update(Buffer.concat(chunks)).digest('hex')
    const xref = length
    // Each entry is exactly 20 bytes: 10-digit offset, 5-digit generation, type, space and newline.
    const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)
    push(
      Buffer.from(
        [
          `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries.join('')}`,
          `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 3 0 R /ID [<${id}> <${id}>] >>\n`,
          `startxref\n${xref}\n%%EOF\n`,
        ].join(''),
        'latin1',
      ),
    )
    return new Uint8Array(Buffer.concat(chunks, length))
  }
}
