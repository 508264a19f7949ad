import type { UblInput } from './ubl-in.ts'

/**
 * Reads a UBL document with the XML path of the invoice functions (./ubl-in.ts), loaded on the first
 * request that sends XML. In the Lambda bundles this module is replaced (infra/constructs/api-function.ts,
 * UBL_IN_CHUNK) by one that imports the separately built chunk beside the bundle, so the XML path's
 * 114 KB (saxes, the UBL schema model, the mapping) stay out of the bundle every JSON request loads.
 * The invoice service is given this reader by its callers (functions/invoice/invoice-handler.ts, the
 * batch worker), as it is given its signer: lib/invoice never imports lib/documents.
 */
export const readUbl = async (text: string): Promise<UblInput> =>
  (await import('./ubl-in.ts')).invoiceFromUbl(text)
