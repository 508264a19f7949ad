import * as z from 'zod'
import { GenerateIrnRequest } from '#lib/irn/schemas.ts'

/** GenerateIRNRequestQRCode (A.6): the IRN request plus an optional certificate. */
export const GenerateQrCodeRequest = GenerateIrnRequest.extend({
  certificate: z
    .string()
    .min(1, 'certificate must not be empty; leave it out to use your business certificate')
    .optional(),
})
export type GenerateQrCodeRequest = z.output<typeof GenerateQrCodeRequest>

/** POST /api/v1/resource/verify-qr: the QR text as scanned. */
export const VerifyQrRequest = z.object({
  qr: z
    .string({ error: 'qr is required: the text of the QR code, as scanned (Base64)' })
    .min(1, 'qr must not be empty')
    .max(4096, 'qr is too long to be a QR code of this service'),
})
export type VerifyQrRequest = z.output<typeof VerifyQrRequest>
