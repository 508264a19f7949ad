import type { AnonymousCaller, ApiClientCaller } from '#lib/auth/caller.ts'
import { probeWebhook } from '#lib/webhooks/probe.ts'
import { applicationDetail, checkDependencies, overallStatus } from './checks.ts'

/**
 * The health reply (CONTRACT section 5), by caller: anonymous uptime probes get `{status, execTime}`;
 * an authenticated client also gets `application`, each dependency's `{status}` and its own webhook
 * (`{status, url, httpStatus, latencyMs}` or `NOT_CONFIGURED`); an ADMIN client gets each dependency's
 * detail too. HTTP 200 unless DOWN (503).
 */
export async function healthReport(
  caller: ApiClientCaller | AnonymousCaller,
): Promise<{ httpStatus: number; body: Record<string, unknown> }> {
  const started = performance.now()
  const webhookUrl = caller.scheme === 'api-signature' ? caller.webhookUrl : undefined
  const [results, webhook] = await Promise.all([
    checkDependencies(),
    webhookUrl ? probeWebhook(webhookUrl) : undefined,
  ])
  const status = overallStatus(results)
  const httpStatus = status === 'DOWN' ? 503 : 200
  const execTime = `${Math.round(performance.now() - started)}ms`
  if (caller.scheme !== 'api-signature') return { httpStatus, body: { status, execTime } }

  const admin = caller.roles.includes('ADMIN')
  const dependencies = Object.fromEntries(
    Object.entries(results).map(([name, r]) => [
      name,
      admin ? { status: r.status, ...r.detail } : { status: r.status },
    ]),
  )
  return {
    httpStatus,
    body: {
      status,
      execTime,
      components: {
        application: admin ? { status: 'UP', ...applicationDetail() } : { status: 'UP' },
        dependencies,
        webhook: webhook
          ? {
              status: webhook.status,
              url: webhook.url,
              httpStatus: webhook.httpStatus,
              latencyMs: webhook.latencyMs,
            }
          : 'NOT_CONFIGURED',
      },
    },
  }
}
