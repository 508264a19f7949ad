import { create as qrCode } from 'qrcode/lib/core/qrcode.js'
import { type FontName, winAnsiBytes } from './helvetica.ts'
import { A4, PdfDocument, type PdfPage, widthOf } from './pdf-writer.ts'
import { typeCodeOf } from './type-codes.ts'
import { decimalText } from './xml.ts'

/**
 * The printable invoice (CONTRACT section 16): parties, lines, totals, the IRN and the authority QR
 * code, as an A4 PDF in the standard Helvetica (no font file to ship), written by our own small PDF
 * writer (pdf-writer.ts: a PDF library alone is more than the function's bundle budget).
 *
 * Byte-identical for the same invoice: nothing comes from the clock or chance. The document's dates are
 * the record's signing time; the QR text is the one stored on the record.
 *
 * The QR is drawn as an image of whole pixels per module (1 bit per pixel, `/Interpolate false`),
 * 40 mm wide with its 4-module quiet zone: about 400 dpi, so a printer or a renderer at print
 * resolution keeps every module edge sharp. The payment status is left out: it changes after signing,
 * and the printed invoice is the signed one (verify-qr tells a reader its status). The notes (`note`, `payment_terms_note`) are stored
 * encrypted and are not printed: this function reads no key.
 */

export interface PdfInput {
  irn: string
  invoice: Record<string, unknown>
  qrText: string
  /** ISO time the invoice was signed: the document's dates. */
  signedAt: string
  /** A test-mode (sandbox) invoice: every page says it is no tax invoice (CONTRACT 18). */
  test?: boolean
}

/** What every page of a test-mode invoice prints, above its content (CONTRACT 18). */
export const TEST_BANNER = 'TEST - NOT A TAX INVOICE'

export const PDF_CONTENT_TYPE = 'application/pdf'

const MM = 72 / 25.4
const PAGE = A4
const MARGIN = 15 * MM
const QR_WIDTH = 40 * MM
// One byte of the 1-bit raster per module (qrRaster): do not change without changing it.
const QR_PIXELS_PER_MODULE = 8
const QR_QUIET_MODULES = 4
const DARK = 0.1
const GREY = 0.4

type Json = Record<string, unknown>
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {})
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : [])
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? decimalText(value) : ''

/** 1234567.5 -> "1,234,567.50": at least two decimals, every decimal the invoice has kept. */
export function money(value: unknown): string {
  const [int = '0', frac = ''] = text(value).split('.')
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${grouped}.${frac.padEnd(2, '0')}`
}

/**
 * The QR code as a 1-bit DeviceGray raster (0 = dark). At 8 pixels per module every module is exactly
 * one byte of its row (0x00 dark, 0xFF light), and the 8 pixel rows of a module row are the same.
 */
function qrRaster(qrText: string) {
  const { modules } = qrCode(qrText, { errorCorrectionLevel: 'M' })
  const rowBytes = modules.size + 2 * QR_QUIET_MODULES
  const side = rowBytes * QR_PIXELS_PER_MODULE
  const bits = new Uint8Array(rowBytes * side).fill(0xff)
  for (let row = 0; row < modules.size; row++) {
    const first = (row + QR_QUIET_MODULES) * QR_PIXELS_PER_MODULE * rowBytes
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) bits[first + QR_QUIET_MODULES + column] = 0x00
    }
    for (let copy = 1; copy < QR_PIXELS_PER_MODULE; copy++) {
      bits.copyWithin(first + copy * rowBytes, first, first + rowBytes)
    }
  }
  return { side, bits }
}

const ELLIPSIS = winAnsiBytes('...')
const fontOf = (bold?: boolean): FontName => (bold ? 'Helvetica-Bold' : 'Helvetica')

/** Lays text out top-down across pages; `y` is the baseline of the next line. */
class Layout {
  page: PdfPage
  y: number
  constructor(
    private readonly doc: PdfDocument,
    private readonly footer: string,
    private readonly banner?: string,
  ) {
    this.page = this.newPage()
    this.y = PAGE.height - MARGIN
  }

  private newPage(): PdfPage {
    const page = this.doc.addPage()
    page.text(this.fit(this.footer, PAGE.width - 2 * MARGIN, 7), MARGIN, MARGIN / 2, { size: 7, gray: GREY })
    if (this.banner) {
      // In the top margin, centred, bold: above everything a page lays out.
      const size = 10
      const width = widthOf(winAnsiBytes(this.banner), size, 'Helvetica-Bold')
      page.text(winAnsiBytes(this.banner), (PAGE.width - width) / 2, PAGE.height - MARGIN / 2 - size / 2, {
        size,
        font: 'Helvetica-Bold',
        gray: DARK,
      })
    }
    return page
  }

  /** Room for `height` more points on this page, or a new page (then true). */
  ensure(height: number): boolean {
    if (this.y - height >= MARGIN) return false
    this.page = this.newPage()
    this.y = PAGE.height - MARGIN
    return true
  }

  /** The text cut to `width` points with an ellipsis, so a long name never runs into the next column. */
  fit(value: string, width: number, size: number, bold = false): Uint8Array {
    const font = fontOf(bold)
    const bytes = winAnsiBytes(value)
    if (widthOf(bytes, size, font) <= width) return bytes
    // The longest start that leaves room for the ellipsis, measured a character at a time.
    const room = width - widthOf(ELLIPSIS, size, font)
    let keep = 0
    for (let used = 0; keep < bytes.length; keep++) {
      used += widthOf(bytes.subarray(keep, keep + 1), size, font)
      if (used > room) break
    }
    const cut = new Uint8Array(keep + ELLIPSIS.length)
    cut.set(bytes.subarray(0, keep))
    cut.set(ELLIPSIS, keep)
    return cut
  }

  text(
    value: string,
    x: number,
    options: { size?: number; bold?: boolean; width?: number; right?: boolean } = {},
  ) {
    const size = options.size ?? 9
    const font = fontOf(options.bold)
    // By default the text may run to the margin: rightwards from x, or leftwards to x when right-aligned.
    const room = options.width ?? (options.right ? x - MARGIN : PAGE.width - MARGIN - x)
    const s = this.fit(value, room, size, options.bold)
    const at = options.right ? x - widthOf(s, size, font) : x
    this.page.text(s, at, this.y, { size, font, gray: DARK })
  }

  rule() {
    this.page.line(MARGIN, this.y + 3, PAGE.width - MARGIN, this.y + 3, { width: 0.5, gray: GREY })
  }
}

function partyLines(party: Json): string[] {
  const address = obj(party.postal_address)
  return [
    text(party.party_name),
    `TIN ${text(party.tin)}`,
    text(address.street_name),
    [text(address.city_name), text(address.postal_zone)].filter(Boolean).join(' '),
    [text(address.lga), text(address.state), text(address.country)].filter(Boolean).join(', '),
    text(party.email),
    text(party.telephone),
  ].filter((line) => line.trim() !== '' && line !== 'TIN ')
}

export function invoicePdf({ irn, invoice, qrText, signedAt, test }: PdfInput): Uint8Array {
  const type = typeCodeOf(text(invoice.invoice_type_code))
  const doc = new PdfDocument({
    title: `${type.name} ${irn}`,
    producer: 'ng-einvoicing-api',
    creator: 'ng-einvoicing-api',
    date: new Date(signedAt),
  })
  const currency = text(invoice.document_currency_code)
  const w = new Layout(doc, `IRN ${irn} - signed ${signedAt}`, test ? TEST_BANNER : undefined)

  // The QR, top right, on the first page.
  const { side, bits } = qrRaster(qrText)
  const image = doc.addImage({ width: side, height: side, bitsPerComponent: 1, pixels: bits })
  const qrX = PAGE.width - MARGIN - QR_WIDTH
  const qrY = PAGE.height - MARGIN - QR_WIDTH
  w.page.image(image, qrX, qrY, QR_WIDTH, QR_WIDTH)
  const caption = 'Scan to verify with the authority (verify-qr)'
  w.page.text(caption, qrX + (QR_WIDTH - widthOf(caption, 6)) / 2, qrY - 8, { size: 6, gray: GREY })

  // Heading: what the document is and its references, left of the QR.
  const left = MARGIN
  const headWidth = qrX - left - 10
  w.y -= 14
  w.text(type.name, left, { size: 18, bold: true, width: headWidth })
  w.y -= 18
  const facts: [string, string][] = [
    ['IRN', irn],
    ['Issue date', [text(invoice.issue_date), text(invoice.issue_time)].filter(Boolean).join(' ')],
    ['Due date', text(invoice.due_date)],
    ['Type code', `${text(invoice.invoice_type_code)} (${type.name})`],
    ['Currency', currency],
    ['Order reference', text(invoice.order_reference)],
    [
      'Billing reference',
      list(invoice.billing_reference)
        .map((r) => text(r.irn))
        .join(', '),
    ],
  ]
  for (const [label, value] of facts) {
    if (!value) continue
    w.text(label, left, { bold: true, width: 80 })
    w.text(value, left + 85, { width: headWidth - 85 })
    w.y -= 12
  }
  w.y = Math.min(w.y, qrY - 24)

  // Supplier and buyer, side by side.
  const half = (PAGE.width - 2 * MARGIN) / 2
  const supplier = partyLines(obj(invoice.accounting_supplier_party))
  const buyer = invoice.accounting_customer_party ? partyLines(obj(invoice.accounting_customer_party)) : []
  w.text('Supplier', left, { bold: true, size: 10 })
  if (buyer.length) w.text('Buyer', left + half, { bold: true, size: 10 })
  w.y -= 13
  for (let i = 0; i < Math.max(supplier.length, buyer.length); i++) {
    if (supplier[i]) w.text(supplier[i]!, left, { width: half - 10, bold: i === 0 })
    if (buyer[i]) w.text(buyer[i]!, left + half, { width: half - 10, bold: i === 0 })
    w.y -= 11
  }
  w.y -= 10

  // Lines.
  const columns = {
    n: left,
    item: left + 22,
    qty: left + 300,
    price: left + 390,
    amount: PAGE.width - MARGIN,
  }
  const header = () => {
    w.text('#', columns.n, { bold: true })
    w.text('Item', columns.item, { bold: true })
    w.text('Quantity', columns.qty, { bold: true, right: true })
    w.text(`Unit price (${currency})`, columns.price + 40, { bold: true, right: true })
    w.text(`Amount (${currency})`, columns.amount, { bold: true, right: true })
    w.y -= 4
    w.rule()
    w.y -= 10
  }
  header()
  for (const [i, line] of list(invoice.invoice_line).entries()) {
    if (w.ensure(24)) header()
    const item = obj(line.item)
    const price = obj(line.price)
    const name = text(item.name) || text(line.product_category) || text(line.hsn_code)
    w.text(String(i + 1), columns.n)
    w.text(name, columns.item, { width: columns.qty - columns.item - 50 })
    w.text(text(line.invoiced_quantity), columns.qty, { right: true })
    const base = text(price.base_quantity)
    w.text(
      price.price_amount === undefined
        ? ''
        : `${money(price.price_amount)}${base && base !== '1' ? ` / ${base}` : ''}`,
      columns.price + 40,
      { right: true },
    )
    w.text(money(line.line_extension_amount), columns.amount, { right: true })
    const detail = [text(item.description), line.hsn_code ? `HS ${text(line.hsn_code)}` : '']
      .filter(Boolean)
      .join(' - ')
    if (detail) {
      w.y -= 10
      w.text(detail, columns.item, { size: 7, width: columns.amount - columns.item })
    }
    w.y -= 13
  }
  w.rule()
  w.y -= 12

  // Totals.
  const total = obj(invoice.legal_monetary_total)
  const rows: [string, unknown, boolean?][] = [['Line total', total.line_extension_amount]]
  for (const ac of list(invoice.allowance_charge))
    rows.push([
      ac.charge_indicator ? 'Charge' : 'Allowance',
      ac.charge_indicator ? ac.amount : `-${text(ac.amount)}`,
    ])
  rows.push(['Total excluding tax', total.tax_exclusive_amount])
  for (const tax of list(invoice.tax_total)) {
    for (const sub of list(tax.tax_subtotal)) {
      const category = obj(sub.tax_category)
      rows.push([
        `${text(category.id)} ${text(category.percent)}% on ${money(sub.taxable_amount)}`,
        sub.tax_amount,
      ])
    }
  }
  rows.push(
    ['Total including tax', total.tax_inclusive_amount],
    [`Payable (${currency})`, total.payable_amount, true],
  )
  for (const [label, value, bold] of rows) {
    w.ensure(14)
    w.text(label, columns.qty - 60, { bold, width: 200 })
    w.text(money(value), columns.amount, { right: true, bold })
    w.y -= 13
  }
  return doc.save()
}
