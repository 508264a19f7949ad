import { randomBytes, randomUUID } from 'node:crypto'
import { tableName } from '#lib/platform/db/client.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { Conflict } from '#lib/platform/errors.ts'

/**
 * The business registry: the businesses the service knows, each with its TIN and the service id the
 * authority assigned, both unique across the service. API clients, switch clients and tokens are the
 * credentials of these businesses (lib/platform/auth/credentials.ts); this module owns the business
 * record and its two uniqueness guards.
 */

export interface Business {
  businessId: string
  serviceId: string
  tin: string
  name: string
  /** The certificate string the QR code carries (CONTRACT section 5). */
  certificate: string
  email?: string
  createdAt: string
}

function newServiceId(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join('')
}

const now = () => new Date().toISOString()

export interface NewBusiness {
  name: string
  tin: string
  businessId?: string
  serviceId?: string
  certificate?: string
  email?: string
}

/** Registers a business; its TIN and service id are unique across the service (one transaction). */
export async function createBusiness(input: NewBusiness): Promise<Business> {
  const business: Business = {
    businessId: input.businessId ?? randomUUID(),
    serviceId: input.serviceId ?? newServiceId(),
    tin: input.tin,
    name: input.name,
    certificate: input.certificate ?? randomBytes(48).toString('base64'),
    ...(input.email ? { email: input.email } : {}),
    createdAt: now(),
  }
  const guard = (key: { pk: string; sk: string }) => ({
    Put: {
      TableName: tableName(),
      Item: { ...key, businessId: business.businessId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  const outcome = await transact({
    'business id': {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.business(business.businessId),
          ...keys.credentialListing('business', business.businessId),
          ...business,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    TIN: guard(keys.businessByTin(business.tin)),
    'service id': guard(keys.businessByServiceId(business.serviceId)),
  })
  // The items are named for what a failed condition says is taken.
  if (!outcome.ok && outcome.failed.length)
    throw new Conflict(`A business with this ${outcome.failed.join(' and ')} is already registered`)
  if (!outcome.ok) throw new Conflict('A business with this identity is already registered')
  return business
}

export const getBusiness = (businessId: string) => readRecord<Business>(keys.business(businessId))

export async function getBusinessByTin(tin: string): Promise<Business | undefined> {
  const guard = await readRecord<{ businessId: string }>(keys.businessByTin(tin))
  return guard ? getBusiness(guard.businessId) : undefined
}
