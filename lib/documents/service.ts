import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { pullableRecord } from '#lib/lifecycle/queries.ts'
import { invoiceQrText } from './invoice-qr.ts'
import { invoicePdf } from './pdf.ts'

/**
 * The PDF of a signed invoice, for its supplier or its buyer (the get-invoice rule; anyone else 404):
 * the stored invoice as signed, its stored QR text, its signing time. Nothing else goes in, so the
 * same invoice gives the same bytes.
 */
export async function invoicePdfFor(caller: ApiClientCaller, irn: string): Promise<Uint8Array> {
  const record = await pullableRecord(caller, irn)
  const qrText = await invoiceQrText(record)
  return invoicePdf({
    irn: record.irn,
    invoice: invoiceOf(record) ?? {},
    qrText,
    signedAt: record.signedAt ?? record.createdAt,
    // The record is read in the caller's mode, so the mode of the work is the invoice's.
    test: currentMode() === 'test',
  })
}
