import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'

/**
 * The stored party and postal address, and the reads that find one of the caller's business by id.
 * Kept apart from ./repository.ts (the writes and the search): the invoice functions import only this
 * to resolve an invoice party named by `id` or `postal_address_id` (./resolve.ts), and their bundles
 * stay as small as they were.
 */

/** A postal address as stored (the authority's four fields, `lga` and `state` when given). */
export interface Address {
  street_name: string
  city_name: string
  postal_zone: string
  lga?: string
  state?: string
  country: string
}

export interface StoredAddress {
  addressId: string
  businessId: string
  address: Address
  /** Made by this request (not read): written in the party's transaction. */
  created?: true
}

export interface PartyRecord {
  entity: 'PARTY'
  partyId: string
  businessId: string
  party_name: string
  tin: string
  email: string
  telephone?: string
  business_description?: string
  postal_address_id: string
  postal_address: Address
  createdAt: string
}

// Strongly consistent: a party created a moment ago is named by the next invoice.
const read = <T>(key: { pk: string; sk: string }) => readRecord<T>(key, { consistent: true })

/** The party with this id when it is the business's (another business's reads as none). */
export async function readParty(partyId: string, businessId: string): Promise<PartyRecord | undefined> {
  const party = await read<PartyRecord>(keys.party(partyId))
  return party?.businessId === businessId ? party : undefined
}

/** The postal address with this id when it is the business's. */
export async function readAddress(addressId: string, businessId: string): Promise<StoredAddress | undefined> {
  const stored = await read<StoredAddress>(keys.postalAddress(addressId))
  return stored?.businessId === businessId
    ? { addressId: stored.addressId, businessId: stored.businessId, address: stored.address }
    : undefined
}
