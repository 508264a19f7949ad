import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { nextSerial } from './repository.ts'
import type { GenerateInvoiceNumberRequest } from './schemas.ts'

/** `code + serial zero-padded to 6` (CONTRACT section 5): INV + 42 -> INV000042; longer serials keep every digit. */
export const formatInvoiceNumber = (code: string, serial: number): string =>
  `${code}${String(serial).padStart(6, '0')}`

/**
 * An explicit serial_number is only formatted (the caller owns its numbering then) and does not move
 * the counter; without one, the business's counter for the code gives the next number.
 */
export async function generateInvoiceNumber(
  caller: ApiClientCaller,
  body: GenerateInvoiceNumberRequest,
): Promise<{ invoice_number: string }> {
  const { businessId } = caller
  const serial = body.serial_number ?? (await nextSerial(businessId, body.code))
  return { invoice_number: formatInvoiceNumber(body.code, serial) }
}
