/**
 * Cold-start reference: the DynamoDB client and the field encryption (Encryption SDK, KMS client),
 * the floor of every function that opens a stored HMAC secret (Areas A and B).
 */
import { decryptField } from '#lib/crypto/fields.ts'
import { db } from '#lib/db/client.ts'

export const handler = async () => ({ statusCode: 200, body: `${typeof db}${typeof decryptField}` })
