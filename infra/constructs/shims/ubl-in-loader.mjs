// Stands in for lib/documents/ubl-in-loader.ts in the Lambda bundles (infra/constructs/api-function.ts,
// UBL_IN_CHUNK): the XML path is the chunk ubl-in.mjs built beside the bundle, imported on first use.
export const readUbl = async (text) =>
  (await import(new URL('./ubl-in.mjs', import.meta.url).href)).invoiceFromUbl(text)
