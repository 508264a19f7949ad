import { signAreaB } from '#lib/auth/sign-request.ts'
import { failureReason, isHttpUrl } from './probe.ts'
import type { PartyWebhook } from './parties.ts'

/**
 * Delivers a JSON payload to a party's webhook, signed like an Area B request (CONTRACT section 6):
 * `Authorization: Bearer <the receiving client's API key>`, X-Timestamp, X-Nonce and X-Signature =
 * Base64(HMAC-SHA256(<the client's current API secret>, METHOD\nPATH?QUERY\nX-Timestamp\nX-Nonce\n
 * hex(SHA-256(body)))). The receiver verifies it with the secret it already holds, and rejects replays
 * by the nonce. Only a 2xx answer counts as delivered.
 */
export const DELIVERY_TIMEOUT_MS = 4000

export interface Delivery {
  delivered: boolean
  url: string
  httpStatus: number | null
  latencyMs: number
  reason?: string
}

export async function deliverSigned(
  webhook: PartyWebhook,
  payload: unknown,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<Delivery> {
  const { url } = webhook
  const started = performance.now()
  const latency = () => Math.round(performance.now() - started)
  if (!isHttpUrl(url))
    return { delivered: false, url, httpStatus: null, latencyMs: 0, reason: 'not an http(s) URL' }
  const body = JSON.stringify(payload)
  const { pathname, search } = new URL(url)
  const headers = signAreaB(
    { token: webhook.apiKey, secret: webhook.secret },
    { method: 'POST', target: `${pathname}${search}`, body },
  )
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.body?.cancel()
    const delivered = res.status >= 200 && res.status < 300
    return {
      delivered,
      url,
      httpStatus: res.status,
      latencyMs: latency(),
      ...(delivered ? {} : { reason: `HTTP ${res.status}` }),
    }
  } catch (error) {
    return {
      delivered: false,
      url,
      httpStatus: null,
      latencyMs: latency(),
      reason: failureReason(error, timeoutMs),
    }
  }
}
