import { signAreaB } from '#client/signing.ts'
import { guardedRequest, outcomeOf } from '#lib/platform/net/request.ts'
import type { PartyWebhook } from './parties.ts'

/**
 * Delivers a JSON payload to a party's webhook, signed like an Area B request (CONTRACT section 6):
 * `Authorization: Bearer <the receiving client's API key>`, X-Timestamp, X-Nonce and X-Signature =
 * Base64(HMAC-SHA256(<the client's current API secret>, METHOD\nPATH?QUERY\nX-Timestamp\nX-Nonce\n
 * hex(SHA-256(body)))). The receiver verifies it with the secret it already holds, and rejects replays
 * by the nonce. Only a 2xx answer counts as delivered. The destination policy holds here too
 * (lib/platform/net/request.ts): the bearer key never goes over plain http outside the local server, nor to an
 * address that is not public.
 */
export const DELIVERY_TIMEOUT_MS = 4000

export interface Delivery {
  delivered: boolean
  url: string
  httpStatus: number | null
  /** Why it was not delivered, as a class (`HTTP 500`, `timeout`, `destination not allowed`). */
  reason?: string
}

export async function deliverSigned(
  webhook: PartyWebhook,
  payload: unknown,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<Delivery> {
  const { url } = webhook
  const body = JSON.stringify(payload)
  try {
    const { pathname, search } = new URL(url)
    const headers = signAreaB(
      { token: webhook.apiKey, secret: webhook.secret },
      { method: 'POST', target: `${pathname}${search}`, body },
    )
    const res = await guardedRequest(url, { method: 'POST', headers, body, timeoutMs })
    const delivered = res.status >= 200 && res.status < 300
    return { delivered, url, httpStatus: res.status, ...(delivered ? {} : { reason: `HTTP ${res.status}` }) }
  } catch (error) {
    return { delivered: false, url, httpStatus: null, reason: outcomeOf(error) }
  }
}
