import type { Problem } from '#lib/platform/errors.ts'
import { type PartyRecord, readAddress, readParty } from './records.ts'

/**
 * Invoice parties named by reference (CONTRACT 17): a party of an invoice may give `id` (a party of
 * the caller's business) instead of its fields, and `postal_address_id` (an address stored with a
 * party) instead of `postal_address`. Both are resolved here, before the invoice is validated, so the
 * rules check and the stored invoice holds the resolved values, on every path that validates or signs.
 *
 * A field the request gives itself is kept as given; the party's stored values fill the ones it
 * leaves out (its address only when the request gives neither `postal_address` nor
 * `postal_address_id`). An id that names nothing of the caller's business is a problem at its path.
 * An invoice that names nothing by reference costs no read.
 */

export const INVOICE_PARTY_FIELDS = [
  'accounting_supplier_party',
  'accounting_customer_party',
  'payee_party',
  'bill_party',
  'ship_party',
  'tax_representative_party',
] as const

const ID = /^[A-Za-z0-9-]{1,64}$/

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const unknownId = (path: string, what: string, id: string): Problem => ({
  path,
  code: 'NG-PT-01',
  message: ID.test(id)
    ? `${id} is not ${what} of your business: create it with POST /api/v1/invoice/party first, or give its fields`
    : `must be ${what}'s id this service issued (letters, digits and hyphens, at most 64), or left out`,
})

/** The party's stored fields an invoice party takes (its id stays as the request gave it). */
function fieldsOf(party: PartyRecord, given: Json): Json {
  const {
    entity: _e,
    partyId: _p,
    businessId: _b,
    createdAt: _c,
    postal_address_id,
    postal_address,
    ...fields
  } = party
  const ownAddress = 'postal_address' in given || 'postal_address_id' in given
  return ownAddress ? fields : { ...fields, postal_address_id, postal_address }
}

/** One invoice party resolved: its fields filled from the named party and address. */
async function resolveParty(
  field: string,
  given: Json,
  businessId: string,
  problems: Problem[],
): Promise<Json> {
  let resolved = given
  if (typeof given.id === 'string') {
    const party = ID.test(given.id) ? await readParty(given.id, businessId) : undefined
    if (!party) {
      problems.push(unknownId(`${field}/id`, 'a party', given.id))
      return given
    }
    resolved = { ...fieldsOf(party, given), ...given }
  }
  const addressId = resolved.postal_address_id
  if (typeof addressId === 'string' && resolved.postal_address === undefined) {
    const stored = ID.test(addressId) ? await readAddress(addressId, businessId) : undefined
    if (!stored) problems.push(unknownId(`${field}/postal_address_id`, 'a postal address', addressId))
    else resolved = { ...resolved, postal_address: stored.address }
  }
  return resolved
}

/**
 * The invoice body with every party named by reference resolved, and the problems found (each at
 * its path). The body is returned as it came when nothing is named by reference.
 */
export async function resolveInvoiceParties(
  body: unknown,
  businessId: string,
): Promise<{ body: unknown; problems: Problem[] }> {
  if (!isObject(body)) return { body, problems: [] }
  const named = INVOICE_PARTY_FIELDS.filter((field) => {
    const party = body[field]
    return isObject(party) && (typeof party.id === 'string' || typeof party.postal_address_id === 'string')
  })
  if (named.length === 0) return { body, problems: [] }
  const problems: Problem[] = []
  const resolved = await Promise.all(
    named.map((field) => resolveParty(field, body[field] as Json, businessId, problems)),
  )
  const out: Json = { ...body }
  named.forEach((field, i) => {
    out[field] = resolved[i]
  })
  return { body: out, problems }
}
