import { appSign } from '#lib/service/endpoints/invoice.ts'
import { invoiceHandler } from './invoice-handler.ts'
import { signBytes } from '#lib/platform/signing/signer.ts'

/**
 * POST /api/{v}/app/invoice/sign: validates the invoice, signs its RFC 8785 canonical JSON with the
 * service's Ed25519 key and records it as SIGNED. Identical content again is the first reply again;
 * different content under a signed IRN is 409.
 */
export const handler = invoiceHandler(appSign, 'sign', { sign: signBytes })
