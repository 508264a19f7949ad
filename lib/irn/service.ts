import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import type { Business } from '#lib/registry/businesses.ts'
import { readCachedRecord } from '#lib/platform/cache/records.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { Conflict, invalid, NotFound } from '#lib/platform/errors.ts'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { createGenerated } from '#lib/invoice/repository.ts'
import { lagosDateStamp } from '#lib/platform/time.ts'
import { buildIrn, parseIrn } from './format.ts'
import type { GenerateIrnRequest, ValidateIrnRequest } from './schemas.ts'

/**
 * generate-irn and validate-irn (CONTRACT section 5). A business_id that is not the caller's is 404
 * (CONTRACT section 3: the caller learns nothing about other businesses). A service_id that is not
 * the caller's own business's is a failed business rule on the caller's own data: 400 naming the field.
 */

/**
 * The caller's own business, when the request names it; 404 otherwise. From the container's record
 * cache (CREDENTIAL_CACHE_SECONDS): a business record is written once, when it is registered.
 */
export async function ownBusiness(caller: ApiClientCaller, businessIdInRequest: string): Promise<Business> {
  const { businessId } = caller
  const business =
    businessIdInRequest === businessId
      ? (await readCachedRecord<Business>(keys.business(businessId)))?.record
      : undefined
  if (!business) {
    throw new NotFound(
      `No business ${businessIdInRequest} for this API key: business_id must be your own business id`,
    )
  }
  return business
}

export interface ResolvedIrn {
  irn: string
  business: Business
}

/** Checks the request against the caller's business and composes the IRN; writes nothing. */
export async function resolveIrn(caller: ApiClientCaller, body: GenerateIrnRequest): Promise<ResolvedIrn> {
  const business = await ownBusiness(caller, body.business_id)
  if (body.service_id !== business.serviceId) {
    throw invalid([
      {
        path: 'service_id',
        code: 'SERVICE_ID_NOT_OWN',
        message: `service_id ${body.service_id} is not your business's service id (${business.serviceId})`,
      },
    ])
  }
  const irn = buildIrn({
    invoiceNumber: body.invoice_number,
    serviceId: business.serviceId,
    date: body.issuance_date ?? lagosDateStamp(),
  })
  return { irn, business }
}

/**
 * Registers the invoice as GENERATED with a conditional put. The same IRN again leaves the stored
 * invoice as it is (it may have moved on to SIGNED meanwhile).
 */
export async function registerIrn({ irn, business }: ResolvedIrn, actor: string): Promise<InvoiceRecord> {
  const record = await createGenerated(irn, business.businessId, actor)
  // Service ids are unique per business, so an IRN names one business; this is a broken invariant.
  if (record.businessId !== business.businessId)
    throw new Conflict(`IRN ${irn} is already registered to another business`)
  return record
}

/** generate-irn: the same request again gives the same IRN (idempotent). */
export async function generateIrn(
  caller: ApiClientCaller,
  body: GenerateIrnRequest,
): Promise<{ irn: string }> {
  const resolved = await resolveIrn(caller, body)
  await registerIrn(resolved, actorOf(caller))
  return { irn: resolved.irn }
}

/**
 * validate-irn (CONTRACT 17): the authority's lifecycle has the business build its own IRN, so a
 * well-formed IRN (the schema checks its form, reference and date) that carries the caller's service
 * id is registered for the caller's business exactly as generate-irn registers one: the same record,
 * and the same IRN again (generated, validated or already signed) is 200 and changes nothing. Every
 * check is made before the write, so a refused request writes nothing.
 */
export async function validateIrn(
  caller: ApiClientCaller,
  body: ValidateIrnRequest,
): Promise<{ irn: string }> {
  const business = await ownBusiness(caller, body.business_id)
  // The schema accepted the IRN's form, so it parses.
  const { invoiceNumber, serviceId } = parseIrn(body.irn)!
  if (serviceId !== business.serviceId) {
    throw invalid(
      [
        {
          path: 'irn',
          code: 'NG-IRN-03',
          message: `IRN ${body.irn} carries service id ${serviceId}: an IRN must carry your business's own service id, ${business.serviceId} (<reference>-${business.serviceId}-<YYYYMMDD>)`,
        },
      ],
      'The IRN is not valid for this business',
    )
  }
  if (body.invoice_reference !== undefined && body.invoice_reference !== invoiceNumber) {
    throw invalid([
      {
        path: 'invoice_reference',
        code: 'INVOICE_REFERENCE_MISMATCH',
        message: `invoice_reference ${body.invoice_reference} is not the invoice number of IRN ${body.irn} (${invoiceNumber}): send the IRN's first segment, or leave invoice_reference out`,
      },
    ])
  }
  await registerIrn({ irn: body.irn, business }, actorOf(caller))
  return { irn: body.irn }
}
