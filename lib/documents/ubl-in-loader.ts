/**
 * Loads the XML path of the invoice functions (./ubl-in.ts) on the first request that sends XML. In
 * the Lambda bundles this module is replaced (infra/constructs/api-function.ts, UBL_IN_CHUNK) by one
 * that imports the separately built chunk beside the bundle, so the XML path's 110 KB (saxes, the
 * UBL schema model, the mapping) stay out of the bundle every JSON request loads.
 */
export const loadUblIn = () => import('./ubl-in.ts')
