import { apiClientsOf } from '#lib/platform/auth/credentials.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryPage } from '#lib/platform/db/query.ts'
import { NotFound } from '#lib/platform/errors.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { getBusiness, getBusinessByTin } from '#lib/registry/businesses.ts'
import { magicBuyerSystem } from '#lib/sandbox/magic.ts'
import { type PartyRecord, readParty } from './records.ts'

/**
 * The entity and the lookups of the authority's API (CONTRACT 17): who the caller's business is, and
 * whether invoices to a party can be transmitted. A party is exchange-ready when its TIN is a business
 * registered here with a system configured in the request's mode (an active API client of the
 * business with a webhook URL: what transmit delivers to, lib/webhooks/parties.ts). Nothing else of
 * another business is told: never its URL, its id or its clients; no webhook is probed.
 */

/** Whether the business has a system configured in this mode (its clients' webhook URLs). */
async function hasSystem(businessId: string): Promise<boolean> {
  const mode = currentMode()
  const clients = await apiClientsOf(businessId)
  return clients.some((client) => client.active && client.webhookUrl && (client.mode ?? 'live') === mode)
}

export interface Entity {
  id: string
  name: string
  tin: string
  service_id: string
  email?: string
  exchange_ready: boolean
}

/**
 * The caller's own business, named by its id, its TIN or its service id. Any other reference is 404,
 * whether or not it names another business here: nothing is revealed about other businesses.
 */
export async function entityOf(businessId: string, reference: string): Promise<Entity> {
  const business = await getBusiness(businessId)
  // An empty reference asks for the caller's own business (CONTRACT 25).
  const own =
    business &&
    (reference === '' || [business.businessId, business.tin, business.serviceId].includes(reference))
  if (!business || !own)
    throw new NotFound(`No business of yours is ${reference}: give your own business id, TIN or service id`)
  return {
    id: business.businessId,
    name: business.name,
    tin: business.tin,
    service_id: business.serviceId,
    ...(business.email ? { email: business.email } : {}),
    exchange_ready: await hasSystem(business.businessId),
  }
}

export interface Lookup {
  tin: string
  party_name: string
  exchange_ready: boolean
}

/** Test mode's magic buyers (docs/sandbox.md) answer as their transmit does: up is ready, down is not. */
function magicLookup(tin: string, name?: string): Lookup | undefined {
  const magic = magicBuyerSystem(tin)
  if (!magic) return undefined
  return { tin, party_name: name ?? `Sandbox buyer (system ${magic})`, exchange_ready: magic === 'up' }
}

/** The newest party of the business with this TIN, if any (one item read from the TIN's list). */
async function partyWithTin(businessId: string, tin: string): Promise<PartyRecord | undefined> {
  const { items } = await queryPage<PartyRecord>(
    {
      // The index projects the party's name (LISTED.partyName), all this lookup shows.
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.partyListPartition(businessId, `TIN#${tin}`) },
      ScanIndexForward: false,
    },
    1,
  )
  return items[0]
}

/**
 * A TIN: a business registered here (its name, and whether it has a system), else a party the caller
 * keeps with that TIN (its name; not ready, as nothing here can receive for it), else 404.
 */
export async function lookupTin(businessId: string, tin: string): Promise<Lookup> {
  const magic = magicLookup(tin)
  if (magic) return magic
  const business = await getBusinessByTin(tin)
  if (business)
    return { tin, party_name: business.name, exchange_ready: await hasSystem(business.businessId) }
  const party = await partyWithTin(businessId, tin)
  if (party) return { tin, party_name: party.party_name, exchange_ready: false }
  throw new NotFound(
    `No business is registered with TIN ${tin}, and your business keeps no party with it: invoices to it cannot be transmitted here`,
  )
}

/** A party of the caller's business, by its id (another business's: 404), and whether its TIN is ready. */
export async function lookupParty(businessId: string, partyId: string): Promise<Lookup> {
  const party = await readParty(partyId, businessId)
  if (!party) throw new NotFound(`No party of your business has id ${partyId}`)
  const magic = magicLookup(party.tin, party.party_name)
  if (magic) return magic
  const business = await getBusinessByTin(party.tin)
  return {
    tin: party.tin,
    party_name: party.party_name,
    exchange_ready: business ? await hasSystem(business.businessId) : false,
  }
}
