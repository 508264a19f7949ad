import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { inflateSync } from 'node:zlib'
import jsQR from 'jsqr'
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, type PDFRawStream } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA } from '#client/signing.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { checkReply } from '../../support/contract.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'
import { shownStrings, xrefProblems } from '../../support/pdf-read.ts'
import { readUbl } from '../../support/ubl-read.ts'
import { ublSchemaErrors } from '../../support/ubl-schemas.ts'

/**
 * The invoice as a document (CONTRACT section 16): the PDF, whose QR is read back out of the PDF
 * itself (the file parsed by pdf-lib, its image decoded by jsQR) and resolved by verify-qr; and the
 * UBL 2.1 XML of get-invoice, checked against the OASIS schemas.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

type Credentials = { apiKey: string; secret: string }

const rawItem = async (irn: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoice(irn), ConsistentRead: true })))
    .Item

/** A signed GET whose reply is read as bytes (the project's client reads text), held to the document. */
async function getBytes(credentials: Credentials, target: string, accept = 'application/pdf') {
  const headers = { accept, ...signAreaA(credentials, { method: 'GET', target, body: '' }) }
  const url = new URL(target, api.url).href
  const res = await fetch(url, { headers })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const json = res.headers.get('content-type')?.startsWith('application/json')
  const text = json ? Buffer.from(bytes).toString('utf8') : '(bytes)'
  checkReply('GET', url, {
    status: res.status,
    headers: res.headers,
    body: json ? JSON.parse(text) : text,
    text,
  })
  return { status: res.status, headers: res.headers, bytes, body: json ? JSON.parse(text) : undefined }
}

const pdfOf = (credentials: Credentials, irn: string, version = 'v1') =>
  getBytes(credentials, `/api/${version}/invoices/${irn}/pdf`)

/** The first page's content streams, decompressed. */
function pageContent(doc: PDFDocument): Buffer {
  const page = doc.getPage(0)
  const contents = page.node.Contents()!
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents]
  return Buffer.concat(
    streams.flatMap((s) => {
      const raw = s as PDFRawStream
      return [
        raw.dict.get(PDFName.of('Filter')) ? inflateSync(raw.contents) : raw.contents,
        Buffer.from('\n'),
      ]
    }),
  )
}

/**
 * The QR image of the first page, as the PDF holds it: its name, its pixels as RGBA for jsQR, its
 * side in pixels and the width it is drawn at, in points.
 */
function qrImage(doc: PDFDocument, content: Buffer) {
  const xObjects = doc.getPage(0).node.Resources()!.lookup(PDFName.of('XObject'), PDFDict)
  const images = xObjects.entries().filter(([, ref]) => {
    const stream = doc.context.lookup(ref) as PDFRawStream
    return stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')
  })
  expect(images).toHaveLength(1)
  const [name, ref] = images[0]!
  const stream = doc.context.lookup(ref) as PDFRawStream
  const number = (key: string) => stream.dict.lookup(PDFName.of(key), PDFNumber).asNumber()
  const [width, height, bits] = [number('Width'), number('Height'), number('BitsPerComponent')]
  expect(stream.dict.get(PDFName.of('ColorSpace'))).toBe(PDFName.of('DeviceGray'))
  expect(bits).toBe(1)
  // Drawn with its module edges kept: a reader must not smooth the pixels when it scales them up.
  expect(stream.dict.get(PDFName.of('Interpolate'))?.toString()).toBe('false')
  const packed = inflateSync(stream.contents)
  const rowBytes = Math.ceil(width / 8)
  const rgba = new Uint8ClampedArray(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const white = (packed[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1
      rgba.fill(white ? 255 : 0, (y * width + x) * 4, (y * width + x) * 4 + 3)
      rgba[(y * width + x) * 4 + 3] = 255
    }
  }
  // The scale the image is drawn with: `w 0 0 h x y cm` just before `/<name> Do`.
  const drawn = new RegExp(`([\\d.]+) 0 0 ([\\d.]+) [\\d.]+ [\\d.]+ cm\\s+${name.toString()} Do`).exec(
    content.toString('latin1'),
  )
  expect(drawn, 'the QR image is drawn on the page').not.toBeNull()
  return { rgba, width, height, drawnWidth: Number(drawn![1]), drawnHeight: Number(drawn![2]) }
}

describe('GET /api/{v}/invoices/{irn}/pdf', () => {
  it('prints the parties, lines, totals and IRN, with a QR that verify-qr resolves to the IRN', async () => {
    const record = await putSignedInvoice()
    const reply = await pdfOf(DEV.clients.si, record.irn)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('application/pdf')
    expect(reply.headers.get('content-disposition')).toBe(`inline; filename="${record.irn}.pdf"`)
    expect(Buffer.from(reply.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')

    const doc = await PDFDocument.load(reply.bytes, { updateMetadata: false })
    // The document's dates are the signing time (PDF dates hold whole seconds), never the clock's.
    const signedSecond = Math.floor(Date.parse(record.signedAt!) / 1000) * 1000
    expect(doc.getCreationDate()?.getTime()).toBe(signedSecond)
    expect(doc.getModificationDate()?.getTime()).toBe(signedSecond)
    expect(xrefProblems(reply.bytes)).toEqual([])
    const content = pageContent(doc)
    const shown = shownStrings(content).join('\n')
    for (const expected of [
      record.irn,
      DEV.supplier.name,
      `TIN ${DEV.supplier.tin}`,
      DEV.buyer.name,
      `TIN ${DEV.buyer.tin}`,
      'Portland cement 42.5R',
      'Reinforcement bar 12 mm',
      '950,000.00',
      '1,279,250.00',
      'Invoice Request',
    ]) {
      expect(shown).toContain(expected)
    }

    const qr = qrImage(doc, content)
    // At least 30 mm wide, and at least 300 pixels per inch as drawn: sharp when printed.
    expect(qr.drawnWidth).toBeGreaterThanOrEqual((30 * 72) / 25.4)
    expect(qr.drawnHeight).toBe(qr.drawnWidth)
    expect(qr.width / (qr.drawnWidth / 72)).toBeGreaterThanOrEqual(300)
    const decoded = jsQR.default(qr.rgba, qr.width, qr.height)
    expect(decoded, 'jsQR reads the QR out of the PDF').not.toBeNull()

    const verified: any = await clients.buyer.post('/api/v1/resource/verify-qr', { qr: decoded!.data })
    expect(verified.status).toBe(200)
    expect(verified.body.data).toEqual({
      irn: record.irn,
      timestamp: signedSecond / 1000,
      issued_at: new Date(signedSecond).toISOString(),
      certificate_valid: true,
      status: 'SIGNED',
      mode: 'live',
    })
  })

  it('gives the same bytes every time, to the supplier on v1 and v2 and to the buyer', async () => {
    const { irn } = await putSignedInvoice()
    // The QR text is made the same by every request (lib/documents/invoice-qr.ts), concurrent ones too.
    const first = await Promise.all([pdfOf(DEV.clients.si, irn), pdfOf(DEV.clients.buyer, irn)])
    const again = [await pdfOf(DEV.clients.app, irn, 'v2'), await pdfOf(DEV.clients.buyer, irn, 'v2')]
    for (const reply of [...first, ...again]) {
      expect(reply.status).toBe(200)
      expect(Buffer.from(reply.bytes).equals(Buffer.from(first[0].bytes))).toBe(true)
    }
  })

  it('writes nothing: the invoice item is the same after its PDFs as before', async () => {
    const { irn } = await putSignedInvoice()
    const before = await rawItem(irn)
    expect((await pdfOf(DEV.clients.si, irn)).status).toBe(200)
    expect((await pdfOf(DEV.clients.buyer, irn)).status).toBe(200)
    expect(await rawItem(irn)).toEqual(before)
    expect(before).not.toHaveProperty('qrText')
  })

  it('prints the QR text an older record stored with its first PDF', async () => {
    const [stored, kept] = [await putSignedInvoice(), await putSignedInvoice()]
    const printed = async (irn: string) => {
      const doc = await PDFDocument.load((await pdfOf(DEV.clients.si, irn)).bytes, { updateMetadata: false })
      const qr = qrImage(doc, pageContent(doc))
      return jsQR.default(qr.rgba, qr.width, qr.height)!.data
    }
    // A text another request once stored on the record (here, another invoice's: any text will do).
    const text = await printed(stored.irn)
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoice(kept.irn),
        UpdateExpression: 'SET qrText = :text',
        ExpressionAttributeValues: { ':text': text },
      }),
    )
    expect(await printed(kept.irn)).toBe(text)
  })

  it('answers 404 to another business, for an unknown IRN, and before the invoice is signed', async () => {
    const { irn } = await putSignedInvoice()
    const other = await pdfOf(DEV.clients.other, irn)
    expect(other.status).toBe(404)
    expect(other.body).toMatchObject({
      status: 'FAILED',
      message: `No invoice ${irn} is available to your business`,
    })
    expect((await pdfOf(DEV.clients.si, `NOPE1-${DEV.supplier.serviceId}-20261121`)).status).toBe(404)
    const validated = await putSignedInvoice({ status: 'VALIDATED' })
    expect((await pdfOf(DEV.clients.si, validated.irn)).status).toBe(404)
    expect((await pdfOf(DEV.clients.buyer, validated.irn)).status).toBe(404)
  })

  it('answers 400 for a path that is not an IRN', async () => {
    expect((await pdfOf(DEV.clients.si, 'not-an-irn')).status).toBe(400)
  })
})

describe('GET /api/{v}/si/get-invoice/{irn} with Accept: application/xml', () => {
  const sign = async (invoice: Record<string, any>) => {
    const reply: any = await clients.app.post('/api/v1/app/invoice/sign', invoice)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return invoice
  }
  const xmlOf = async (credentials: Credentials, irn: string, accept = 'application/xml') => {
    const reply = await getBytes(credentials, `/api/v1/si/get-invoice/${irn}`, accept)
    return { ...reply, xml: Buffer.from(reply.bytes).toString('utf8') }
  }

  it('gives invoices, credit notes and debit notes as UBL 2.1, valid against the OASIS schemas', async () => {
    const original = await sign(buildInvoice())
    const against = [{ irn: original.irn, issue_date: original.issue_date }]
    const credit = await sign({ ...buildInvoice(), invoice_type_code: '380', billing_reference: against })
    const debit = await sign({ ...buildInvoice(), invoice_type_code: '384', billing_reference: against })
    for (const [invoice, root, code] of [
      [original, 'Invoice', '380'],
      [credit, 'CreditNote', '381'],
      [debit, 'Invoice', '383'],
    ] as const) {
      for (const credentials of [DEV.clients.si, DEV.clients.buyer]) {
        const reply = await xmlOf(credentials, invoice.irn)
        expect(reply.status).toBe(200)
        expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8')
        expect(ublSchemaErrors(reply.xml)).toEqual([])
        const read = readUbl(reply.xml)
        expect(read.root).toBe(root)
        expect(read.typeCode).toBe(code)
        expect(read.invoice).toMatchObject({
          irn: invoice.irn,
          invoice_type_code: invoice.invoice_type_code,
          legal_monetary_total: invoice.legal_monetary_total,
          note: invoice.note,
        })
      }
    }
  })

  it('keeps JSON for JSON, */* or no preference, and the 404 for another business', async () => {
    const { irn } = await putSignedInvoice()
    for (const accept of ['application/json', '*/*', 'application/json, application/xml;q=0.5']) {
      const reply = await xmlOf(DEV.clients.si, irn, accept)
      expect(reply.headers.get('content-type')).toBe('application/json')
      expect(reply.body.data.irn).toBe(irn)
    }
    expect((await xmlOf(DEV.clients.si, irn, 'text/html, application/xml;q=0.9')).status).toBe(200)
    const other = await xmlOf(DEV.clients.other, irn)
    expect(other.status).toBe(404)
    expect(other.headers.get('content-type')).toBe('application/json')
  })
})
