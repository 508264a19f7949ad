/**
 * Cold-start reference: the project's DynamoDB document client module and nothing else, the floor
 * of every function (all of them read or write the table).
 */
import { db } from '#lib/platform/db/client.ts'

export const handler = async () => ({ statusCode: 200, body: String(typeof db) })
