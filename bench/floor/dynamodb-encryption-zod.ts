/**
 * Cold-start reference: the DynamoDB client, the field encryption and zod, the three libraries every
 * invoice, batch, webhook and transaction function needs (issue 15's fixed choices), with one small
 * schema built and used, and no project code of its own. If this alone is over 1.5x the DynamoDB-only
 * floor, no function needing all three can be within that target.
 */
import * as z from 'zod'
import { decryptField } from '#lib/crypto/fields.ts'
import { db } from '#lib/db/client.ts'

const Body = z.object({ id: z.string().min(1), amount: z.number().nonnegative() })

export const handler = async (event: { body?: string }) => ({
  statusCode: 200,
  body: `${typeof db}${typeof decryptField}${Body.safeParse(JSON.parse(event.body ?? '{}')).success}`,
})
