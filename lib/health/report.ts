import type { AnonymousCaller, ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { logger } from '#lib/platform/log.ts'
import { probeWebhook } from '#lib/webhooks/probe.ts'
import { applicationDetail, checkDependencies, overallStatus } from './checks.ts'

/**
 * The health reply (CONTRACT sections 5 and 17), by caller: anonymous uptime probes get `{healthy,
 * status, execTime}`;
 * an authenticated client also gets `application`, each dependency's `{status}` and its own webhook
 * (`{status, url, httpStatus}` or `NOT_CONFIGURED`). HTTP 200 unless DOWN (503).
 *
 * Dependency detail (table name, key ids and sources, latencies, versions) is the operator's, not a
 * tenant's, whatever its role (CONTRACT section 14): it goes to the function's log, one line per
 * authenticated check, and never into a reply.
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
  // The authority's clients read `healthy` (CONTRACT 17): degraded still serves requests.
  const healthy = status !== 'DOWN'
  if (caller.scheme !== 'api-signature') return { httpStatus, body: { healthy, status, execTime } }

  logger.info('health check detail', {
    status,
    application: applicationDetail(),
    dependencies: Object.fromEntries(
      Object.entries(results).map(([name, r]) => [name, { status: r.status, ...r.detail }]),
    ),
  })
  const dependencies = Object.fromEntries(
    Object.entries(results).map(([name, r]) => [name, { status: r.status }]),
  )
  return {
    httpStatus,
    body: {
      healthy,
      status,
      execTime,
      components: {
        application: { status: 'UP' },
        dependencies,
        webhook: webhook
          ? {
              status: webhook.status,
              url: webhook.url,
              httpStatus: webhook.httpStatus,
            }
          : 'NOT_CONFIGURED',
      },
    },
  }
}
