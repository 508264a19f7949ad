import * as z from 'zod'
import { endpoint } from '#lib/http/endpoint.ts'

/** GET /api/v1/health-check (CONTRACT section 5). */

const Status = z.enum(['UP', 'DEGRADED', 'DOWN'])
const Component = z.looseObject({ status: Status })

export const HealthReport = z.object({
  status: Status.meta({ description: 'Overall status' }),
  execTime: z.string().meta({ description: 'Time taken, e.g. "12ms"' }),
  components: z
    .object({
      application: Component,
      dependencies: z.record(z.string(), Component).meta({
        description: 'Each dependency; ADMIN clients also get its detail (latency, keys loaded, version)',
      }),
      webhook: z
        .union([
          z.literal('NOT_CONFIGURED'),
          z.object({
            status: z.string(),
            url: z.string(),
            httpStatus: z.int().nullable().optional(),
            latencyMs: z.number().nullable().optional(),
          }),
        ])
        .meta({ description: "Your webhook's reachability" }),
    })
    .optional()
    .meta({ description: 'Authenticated callers only' }),
})

export const healthCheck = endpoint({
  functionId: 'health-check',
  summary: 'Health of the application, its dependencies and your webhook',
  description:
    "Without credentials only `{status, execTime}` (for uptime probes; a wrong signature is still 401). Any authenticated client also gets `components`; an ADMIN client also gets each dependency's detail.",
  request: {},
  replies: {
    200: { description: 'UP or DEGRADED', data: HealthReport },
    503: {
      description: 'DOWN',
      data: HealthReport,
      orError: 'The database is unreachable while authenticating a signed request: the error record',
    },
  },
})
