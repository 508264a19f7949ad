import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'

/**
 * The next serial number of a business's counter for one code. A single UpdateItem with ADD is atomic
 * in DynamoDB: concurrent requests each get their own value, with no duplicates and no gaps, and the
 * counter item is created at 1 on first use.
 */
export async function nextSerial(businessId: string, code: string): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invoiceNumberCounter(businessId, code),
      UpdateExpression: 'ADD serial :one SET updatedAt = :at',
      ExpressionAttributeValues: { ':one': 1, ':at': new Date().toISOString() },
      ReturnValues: 'UPDATED_NEW',
    }),
  )
  return Number(out.Attributes?.serial)
}
