import { apiHandler } from '#lib/http/factory.ts'
import { applicationDetail, dependencyChecks } from '#lib/health/checks.ts'

/**
 * GET /api/v1/health-check (CONTRACT section 5). Anonymous callers (uptime probes) get the overall
 * status only; authenticated clients also get each component's status; ADMIN clients get the detail.
 */
export const handler = apiHandler({}, async ({ caller }) => {
  const started = performance.now()
  const names = Object.keys(dependencyChecks)
  const results = await Promise.all(names.map((name) => dependencyChecks[name]!()))
  const down = results.filter((r) => r.status === 'DOWN').length
  const status = down === 0 ? 'UP' : down === results.length ? 'DOWN' : 'DEGRADED'
  const execTime = `${Math.round(performance.now() - started)}ms`
  const httpStatus = status === 'DOWN' ? 503 : 200
  if (caller.scheme !== 'api-signature') return { status: httpStatus, data: { status, execTime } }

  const admin = caller.roles.includes('ADMIN')
  const dependencies = Object.fromEntries(
    names.map((name, i) => [
      name,
      admin ? { status: results[i]!.status, ...results[i]!.detail } : { status: results[i]!.status },
    ]),
  )
  return {
    status: httpStatus,
    data: {
      status,
      execTime,
      components: {
        application: admin ? { status: 'UP', ...applicationDetail() } : { status: 'UP' },
        dependencies,
        webhook: caller.webhookUrl ? { status: 'UNKNOWN', url: caller.webhookUrl } : 'NOT_CONFIGURED',
      },
    },
  }
})
