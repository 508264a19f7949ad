import { readUbl } from '#lib/documents/ubl-in-loader.ts'
import { judgeEn16931 } from '#lib/en16931/loader.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import type { Endpoint } from '#lib/platform/http/endpoint.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { API_VERSIONS } from '#lib/invoice/schemas.ts'
import { type InvoiceAction, type InvoiceSigner, handleInvoice } from '#lib/invoice/service.ts'
import { prepareValidation } from '#lib/invoice/validate.ts'

/**
 * The handler of an invoice endpoint: si/validate, app/invoice/validate and app/invoice/sign differ
 * only in what they do with a valid invoice and which schema version applies. The declaration gives
 * the body schema with `bodyValidation: 'service'`: the invoice service validates with that schema
 * itself, so that schema problems and business-rule problems come back together in one reply.
 * A signing endpoint passes the signer (`options.sign`), as every handler passes its verifier: the
 * function that only validates then bundles no signing key code (Secrets Manager client included).
 */
export function invoiceHandler(
  declaration: Endpoint,
  action: InvoiceAction,
  options: { schemaVersion?: 'v1'; sign?: InvoiceSigner } = {},
) {
  // The schemas this function validates with, built now, as it loads (never by a request): the
  // authority's rules' too when one of its routes is the authority's, which is served as v1 (CONTRACT 17).
  for (const version of options.schemaVersion ? [options.schemaVersion] : API_VERSIONS)
    prepareValidation(version)
  if (declaration.routes.some((spec) => spec.profile === 'authority')) prepareValidation('v1', 'authority')
  return apiHandler(declaration, apiSignature, async ({ body, query, caller, version, headers, route }) => ({
    data: await handleInvoice({
      action,
      ...(options.sign ? { sign: options.sign } : {}),
      // A route that takes XML reads it with the UBL in path (CONTRACT 22), loaded on the first XML request.
      ...(declaration.request.xmlBody ? { readUbl } : {}),
      // A validate route reports the EN 16931 findings (CONTRACT 22), its rules loaded on the first
      // request that needs them: a UBL invoice's always, a JSON invoice's when asked (CONTRACT 25).
      ...(declaration.request.en16931
        ? { judgeEn16931, en16931ForJson: (query as { en16931?: string } | undefined)?.en16931 === 'true' }
        : {}),
      version: options.schemaVersion ?? version ?? 'v1',
      caller,
      // The parsed JSON as is (bodyValidation 'service'): validateInvoice applies every rule, the text rule included.
      body,
      modeHeader: headers['x-validation-mode'],
      // The route's profile picks the request rules; the domain never knows which path was called.
      rules: route.profile === 'authority' ? 'authority' : 'interface',
    }),
  }))
}
