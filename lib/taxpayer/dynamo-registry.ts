import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { Taxpayer, TaxpayerRegistry } from './registry.ts'

/** The registry as items in the service's table, one per TIN (keys.taxpayer). */
export const dynamoTaxpayerRegistry: TaxpayerRegistry = {
  lookup: (tin) => readRecord<Taxpayer>(keys.taxpayer(tin)),
}

/** Adds or replaces a registry entry (seeding, and a future registry sync). */
export async function putTaxpayer(taxpayer: Taxpayer): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.taxpayer(taxpayer.tin), ...taxpayer } }),
  )
}
