import { appValidate } from '#lib/service/endpoints/invoice.ts'
import { invoiceHandler } from './invoice-handler.ts'
import { signBytes } from '#lib/platform/signing/signer.ts'

/**
 * POST /api/{v}/app/invoice/validate: validates, then signs and reports the invoice (spec endpoint
 * behaviour 2): the same as sign, recorded as SIGNED, with the path version's schema.
 */
export const handler = invoiceHandler(appValidate, 'sign', { sign: signBytes })
