import { createHash } from 'node:crypto'
import { writeIf } from '#lib/platform/db/write.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { WINDOW_SECONDS } from './timestamps.ts'

/**
 * Marks something as seen, exactly once: a conditional put that fails if the key exists. Under
 * concurrent delivery of the same value DynamoDB lets exactly one put through. The TTL only tidies
 * up; correctness never depends on it, since a timestamp outside the window is refused anyway.
 * Returns false if it was seen before. If DynamoDB cannot be reached the error propagates and the
 * request is refused with 503: never let through unchecked.
 */
async function markOnce(key: { pk: string; sk: string }, expiresAt: number): Promise<boolean> {
  const marked = await writeIf({
    Put: { Item: { ...key, expiresAt }, ConditionExpression: 'attribute_not_exists(pk)' },
  })
  return marked.written
}

const expiry = (timestamp: Date, slackSeconds: number) =>
  Math.floor(timestamp.getTime() / 1000) + WINDOW_SECONDS + slackSeconds

/** Area A: a (key, signature) pair is accepted once. The signature's hash is stored, not the signature. */
export function acceptSignatureOnce(apiKey: string, signature: string, timestamp: Date): Promise<boolean> {
  const signatureHash = createHash('sha256').update(signature).digest('hex')
  return markOnce(keys.replay(apiKey, signatureHash), expiry(timestamp, 60))
}

/** Area B: a client's nonce is spent once (TTL timestamp + 360 s, CONTRACT section 6). */
export function spendNonce(clientId: string, nonce: string, timestamp: Date): Promise<boolean> {
  return markOnce(keys.nonce(clientId, nonce), expiry(timestamp, 60))
}
