import { apiSignatureOrAnonymous } from '#lib/platform/auth/api-signature.ts'
import { healthCheck } from '#lib/service/endpoints/health.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { healthReport } from '#lib/health/report.ts'

/**
 * GET /api/v1/health-check (CONTRACT section 5). Anonymous callers (uptime probes) get the overall
 * status only; authenticated clients also get each component's status and their webhook's; ADMIN
 * clients get the detail.
 */
export const handler = apiHandler(healthCheck, apiSignatureOrAnonymous, async ({ caller }) => {
  const { httpStatus, body } = await healthReport(caller)
  return { status: httpStatus, data: body }
})
