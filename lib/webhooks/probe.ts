/**
 * Is a party's webhook endpoint up? One HEAD request with a time limit: any HTTP answer below 500
 * (a 404 or 405 included: the server is there and answering) counts as up; a 5xx, a timeout or a
 * connection failure counts as down. Redirects are not followed: a 3xx is an answer.
 */
export const WEBHOOK_TIMEOUT_MS = 2000

export interface WebhookProbe {
  status: 'UP' | 'DOWN'
  url: string
  /** null when no HTTP answer came back. */
  httpStatus: number | null
  latencyMs: number
  /** Why it is down, in words: `timeout after 2000 ms`, `ECONNREFUSED`, `HTTP 503`. */
  reason?: string
}

export function failureReason(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `timeout after ${timeoutMs} ms`
  return err.cause?.code ?? err.message
}

export const isHttpUrl = (url: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol)
  } catch {
    return false
  }
}

export async function probeWebhook(url: string, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<WebhookProbe> {
  const started = performance.now()
  const latency = () => Math.round(performance.now() - started)
  if (!isHttpUrl(url))
    return { status: 'DOWN', url, httpStatus: null, latencyMs: 0, reason: 'not an http(s) URL' }
  try {
    const res = await fetch(url, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    await res.body?.cancel()
    const up = res.status < 500
    return {
      status: up ? 'UP' : 'DOWN',
      url,
      httpStatus: res.status,
      latencyMs: latency(),
      ...(up ? {} : { reason: `HTTP ${res.status}` }),
    }
  } catch (error) {
    return {
      status: 'DOWN',
      url,
      httpStatus: null,
      latencyMs: latency(),
      reason: failureReason(error, timeoutMs),
    }
  }
}
