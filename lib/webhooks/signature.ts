import { createHmac, randomBytes } from 'node:crypto'

/**
 * Standard Webhooks signatures (CONTRACT section 11; standardwebhooks.com, "Signature scheme"): the
 * secret is `whsec_` + Base64 of 32 random bytes; a delivery carries `webhook-id` (the event id, the
 * same on every attempt, so receivers deduplicate), `webhook-timestamp` (Unix seconds of this attempt)
 * and `webhook-signature: v1,<Base64 HMAC-SHA256(secret bytes, "{id}.{timestamp}.{body}")>`.
 */
const PREFIX = 'whsec_'

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`
}

export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
}

export interface SignedHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): SignedHeaders {
  const signature = createHmac('sha256', secretBytes(secret))
    .update(`${id}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64')
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  }
}
