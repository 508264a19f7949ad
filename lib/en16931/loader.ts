import type { Finding } from './model.ts'

/**
 * The EN 16931 business rules' findings on an invoice record (./findings.ts), loaded on the first
 * validate request. In the Lambda bundles this module is replaced (infra/constructs/api-function.ts,
 * EN16931_CHUNK) by one that imports the separately built chunk beside the bundle, so the rules'
 * ~80 KB stay out of the bundle. The invoice service is given this judge by the validate handlers
 * (functions/invoice/invoice-handler.ts), as it is given its UBL reader.
 */
export const judgeEn16931 = async (record: object): Promise<Finding[]> =>
  (await import('./findings.ts')).findingsOf(record)
