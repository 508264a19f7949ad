import { randomBytes, randomUUID } from 'node:crypto'
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { transactionCancellationCodes } from '#lib/platform/db/errors.ts'
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
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
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
          guard(keys.businessByTin(business.tin)),
          guard(keys.businessByServiceId(business.serviceId)),
        ],
      }),
    )
  } catch (error) {
    const codes = transactionCancellationCodes(error)
    if (!codes) throw error
    const what = ['business id', 'TIN', 'service id'].filter((_, i) => codes[i] === 'ConditionalCheckFailed')
    throw new Conflict(`A business with this ${what.join(' and ') || 'identity'} is already registered`)
  }
  return business
}

export const getBusiness = (businessId: string) => readRecord<Business>(keys.business(businessId))

export async function getBusinessByTin(tin: string): Promise<Business | undefined> {
  const guard = await readRecord<{ businessId: string }>(keys.businessByTin(tin))
  return guard ? getBusiness(guard.businessId) : undefined
}
