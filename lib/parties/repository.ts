import { randomUUID } from 'node:crypto'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryUpTo } from '#lib/platform/db/query.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { type IndexName, indexNamed } from '#lib/platform/db/table.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { type TransactItem, transact } from '#lib/platform/db/transact.ts'
import { BadRequest, Conflict } from '#lib/platform/errors.ts'
import { type Address, type PartyRecord, readAddress, type StoredAddress } from './records.ts'
import { type CreatePartyRequest, nameKey, type PartySearchQuery } from './schemas.ts'

/**
 * The parties a business keeps for its invoices (CONTRACT 17). A party is two items written in one
 * transaction: the party by its id (PARTY#, what an invoice naming it reads) and its list item,
 * numbered densely in four spaces of the business (ALL, its TIN, its name, the two together) as
 * supplier search numbers invoices (lib/invoice/search.ts), so page N of a search is a key range
 * under the space's counter: the counter plus at most `size` items, however many parties there are.
 * The numbers come from the counters read just before and are set in the same transaction, on the
 * condition that each counter is still what was read: numbers are never lost, never shared, and a
 * lost race is decided again on fresh reads (lib/platform/db/retry.ts).
 */

/** The spaces a party is numbered in, by their counter's name. */
const spacesOf = (tin: string, name: string) => ({
  all: 'ALL',
  tin: `TIN#${tin}`,
  name: `NAME#${nameKey(name)}`,
  tinName: `TINNAME#${tin}#${nameKey(name)}`,
})
type Spaces = ReturnType<typeof spacesOf>
type Numbers = Record<keyof Spaces, number>

/** The index each filter space's list is on (the ALL list is the table's own). */
const SPACE_INDEX = { tin: 'gsi1', name: 'gsi2', tinName: 'gsi3' } as const satisfies Record<
  string,
  IndexName
>

/** A page of parties: CONTRACT 16's Envelope page. */
export interface PartyPage {
  content: PartyView[]
  page: { size: number; number: number; totalElements: number; totalPages: number }
}

/** A party as the API shows it. */
export interface PartyView {
  id: string
  business_id: string
  party_name: string
  tin: string
  email: string
  telephone?: string
  business_description?: string
  postal_address_id: string
  postal_address: Address
  created_at: string
}

export const viewOf = (party: PartyRecord): PartyView => ({
  id: party.partyId,
  business_id: party.businessId,
  party_name: party.party_name,
  tin: party.tin,
  email: party.email,
  ...(party.telephone ? { telephone: party.telephone } : {}),
  ...(party.business_description ? { business_description: party.business_description } : {}),
  postal_address_id: party.postal_address_id,
  postal_address: party.postal_address,
  created_at: party.createdAt,
})

async function counterOf(businessId: string, space: string): Promise<number> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.partyCounter(businessId, space),
      ConsistentRead: true,
    }),
  )
  return typeof out.Item?.n === 'number' ? out.Item.n : 0
}

/** Each space's counter moved from what was read to the party's number, or the transaction fails. */
function counterUpdate(businessId: string, space: string, read: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.partyCounter(businessId, space),
      UpdateExpression: 'SET n = :next, entity = :entity',
      ConditionExpression: read === 0 ? 'attribute_not_exists(pk)' : 'n = :read',
      ExpressionAttributeValues: {
        ':next': read + 1,
        ':entity': 'PARTY_COUNTER',
        ...(read === 0 ? {} : { ':read': read }),
      },
    },
  }
}

const put = (item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
})

/** The address the request gives, or the one it names (the caller's own, else 400 at its path). */
async function addressFor(businessId: string, request: CreatePartyRequest): Promise<StoredAddress> {
  if (request.postal_address)
    return { addressId: randomUUID(), businessId, address: request.postal_address, created: true }
  const stored = await readAddress(request.postal_address_id!, businessId)
  if (!stored)
    throw new BadRequest('The request body is invalid: 1 problem found', {
      problems: [
        {
          path: 'postal_address_id',
          code: 'NG-PT-01',
          message: `postal_address_id ${request.postal_address_id} is not a postal address of your business: give postal_address, or the postal_address_id a party created earlier replied with`,
        },
      ],
    })
  return stored
}

/** Creates a party of the caller's business (the route has checked business_id is the caller's). */
export async function createParty(businessId: string, request: CreatePartyRequest): Promise<PartyView> {
  const address = await addressFor(businessId, request)
  const party: PartyRecord = {
    entity: 'PARTY',
    partyId: randomUUID(),
    businessId,
    party_name: request.party_name,
    tin: request.tin,
    email: request.email,
    ...(request.telephone ? { telephone: request.telephone } : {}),
    ...(request.business_description ? { business_description: request.business_description } : {}),
    postal_address_id: address.addressId,
    postal_address: address.address,
    createdAt: new Date().toISOString(),
  }
  const spaces = spacesOf(party.tin, party.party_name)
  const names = Object.keys(spaces) as (keyof Spaces)[]
  return withRetries(async () => {
    const read = await Promise.all(names.map((name) => counterOf(businessId, spaces[name])))
    const numbers = Object.fromEntries(names.map((name, i) => [name, read[i]! + 1])) as Numbers
    const outcome = await transact({
      counters: names.map((name, i) => counterUpdate(businessId, spaces[name], read[i]!)),
      party: put({ ...keys.party(party.partyId), ...party }),
      list: put({ ...listKeys(businessId, spaces, numbers), ...party, entity: 'PARTY_LIST', seq: numbers }),
      address: address.created
        ? put({
            ...keys.postalAddress(address.addressId),
            entity: 'POSTAL_ADDRESS',
            addressId: address.addressId,
            businessId,
            address: address.address,
            createdAt: party.createdAt,
          })
        : undefined,
    })
    if (outcome.ok) return viewOf(party)
    // Another party of the business took a number first: read the counters again.
    if (outcome.failed.every((name) => name === 'counters')) return AGAIN
    throw new Conflict('The party could not be stored: retry')
  })
}

/** The list item's table and index keys at its numbers. */
function listKeys(businessId: string, spaces: Spaces, numbers: Numbers) {
  const indexed = (space: keyof typeof SPACE_INDEX) => ({
    [indexNamed(SPACE_INDEX[space]).partitionKey]: keys.partyListPartition(businessId, spaces[space]),
    [indexNamed(SPACE_INDEX[space]).sortKey]: keys.seqKey(numbers[space]),
  })
  return {
    ...keys.partyList(businessId, numbers.all),
    ...indexed('tin'),
    ...indexed('name'),
    ...indexed('tinName'),
  }
}

/** The space a search reads: the narrowest its filters name. */
function spaceOf(query: PartySearchQuery): { name: string; index?: keyof typeof SPACE_INDEX } {
  if (query.tin && query.party_name)
    return { name: `TINNAME#${query.tin}#${nameKey(query.party_name)}`, index: 'tinName' }
  if (query.tin) return { name: `TIN#${query.tin}`, index: 'tin' }
  if (query.party_name) return { name: `NAME#${nameKey(query.party_name)}`, index: 'name' }
  return { name: 'ALL' }
}

/**
 * Page N of the business's parties matching the query, newest first: the space's counter, then the
 * key range (n - N*size - size, n - N*size] of its list, at most `size` items.
 */
export async function searchParties(businessId: string, query: PartySearchQuery): Promise<PartyPage> {
  const space = spaceOf(query)
  const n = await counterOf(businessId, space.name)
  const top = n - (query.page - 1) * query.size
  const bottom = Math.max(1, top - query.size + 1)
  const partition = keys.partyListPartition(businessId, space.index ? space.name : undefined)
  const range = { ':pk': partition, ':bottom': keys.seqKey(bottom), ':top': keys.seqKey(top) }
  const index = space.index ? SPACE_INDEX[space.index] : undefined
  const found =
    top >= 1
      ? await queryUpTo<Record<string, unknown>>(
          {
            ...(index ? { IndexName: index } : { ConsistentRead: true }),
            KeyConditionExpression: index
              ? `${indexNamed(index).partitionKey} = :pk AND ${indexNamed(index).sortKey} BETWEEN :bottom AND :top`
              : 'pk = :pk AND sk BETWEEN :bottom AND :top',
            ExpressionAttributeValues: range,
            ScanIndexForward: false,
          },
          top - bottom + 1,
        )
      : []
  // A filter space's index holds the list items' keys only (a party's fields would not fit in the
  // table's 100 projected attributes): the page's items are read after it.
  const items = index ? await withAttributes<Record<string, unknown>>(index, 'item', found) : found
  return {
    content: items.map((item) => viewOf(recordOf<PartyRecord>(item))),
    page: {
      size: query.size,
      number: query.page - 1,
      totalElements: n,
      totalPages: Math.ceil(n / query.size),
    },
  }
}
