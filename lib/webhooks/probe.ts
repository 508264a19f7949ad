import { guardedRequest, outcomeOf } from '#lib/platform/net/request.ts'

/**
 * Is a party's webhook endpoint up? One HEAD request with a time limit, under the destination policy
 * (lib/platform/net/request.ts: an address that is not public is never connected to): any HTTP answer below
 * 500 (a 404 or 405 included: the server is there and answering) counts as up; a 5xx, a timeout, a
 * connection failure or a refused destination counts as down. Redirects are not followed: a 3xx is
 * an answer.
 */
export const WEBHOOK_TIMEOUT_MS = 2000

export interface WebhookProbe {
  status: 'UP' | 'DOWN'
  url: string
  /** null when no HTTP answer came back. */
  httpStatus: number | null
  /** Why it is down, as a class: `timeout`, `connection refused`, `destination not allowed`, `HTTP 503`. */
  reason?: string
}

export async function probeWebhook(url: string, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<WebhookProbe> {
  try {
    const res = await guardedRequest(url, { method: 'HEAD', timeoutMs })
    const up = res.status < 500
    return {
      status: up ? 'UP' : 'DOWN',
      url,
      httpStatus: res.status,
      ...(up ? {} : { reason: `HTTP ${res.status}` }),
    }
  } catch (error) {
    return { status: 'DOWN', url, httpStatus: null, reason: outcomeOf(error) }
  }
}
