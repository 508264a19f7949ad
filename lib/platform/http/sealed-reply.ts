import { createHash } from 'node:crypto'
import { decryptField, encryptField } from '#lib/platform/crypto/fields.ts'

/**
 * The stored first reply of a route whose reply carries a secret shown once (CONTRACT section 14):
 * sealed with the data key before it is written to its idempotency record, opened for a replay. The
 * encryption context binds it to that one record, so a copied ciphertext does not open elsewhere.
 *
 * A module of its own, passed to apiHandler by the handlers that need it (`sealedReplies`), so that
 * only their bundles carry the Encryption SDK.
 */
export interface ReplySealer {
  seal(body: string, record: { pk: string; sk: string }): Promise<string>
  open(stored: string, record: { pk: string; sk: string }): Promise<string>
}

const contextOf = (record: { pk: string; sk: string }) => ({
  record: 'idempotent-reply',
  id: createHash('sha256').update(`${record.pk}\n${record.sk}`).digest('hex'),
  field: 'body',
})

export const sealedReplies: ReplySealer = {
  seal: (body, record) => encryptField(body, contextOf(record)),
  open: (stored, record) => decryptField(stored, contextOf(record)),
}
