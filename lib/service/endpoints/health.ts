import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { ANY, reads } from './common.ts'

/** GET /api/v1/health-check (CONTRACT section 5). */

export const healthCheck = /* @__PURE__ */ /* @__PURE__ */ endpointsOf({
  domain: 'health',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'record',
  versions: ['v1'],
})({
  functionId: 'health-check',
  routes: [
    { method: 'GET', path: '/health-check' },
    // The authority's probe (clients call it first, often without credentials) and its own check.
    { method: 'GET', path: '/api', profile: 'authority' },
    {
      method: 'GET',
      path: '/api/v1/invoice/transmit/self-health-check',
      profile: 'authority',
      signedOnly: true,
    },
  ],
  roles: ANY,
  allowAnonymous: true,
  // It proves each dependency answers: the table, both key secrets.
  access: { table: [reads(['HEALTH'])], secrets: ['signing-key', 'qr-authority-key'] },
  request: {},
})

const Status = () => z.enum(['UP', 'DEGRADED', 'DOWN'])

const HealthReport = () => {
  const component = z.looseObject({ status: Status() })
  return z.object({
    healthy: z
      .boolean()
      .meta({ description: "UP or DEGRADED: the service takes requests (the authority's member)" }),
    status: Status().meta({ description: 'Overall status' }),
    execTime: z.string().meta({ description: 'Time taken, e.g. "12ms"' }),
    components: z
      .object({
        application: component,
        dependencies: z.record(z.string(), component).meta({
          description: "Each dependency's status; its detail is in the operator's logs, never in a reply",
        }),
        webhook: z
          .union([
            z.literal('NOT_CONFIGURED'),
            z.object({
              status: z.string(),
              url: z.string(),
              httpStatus: z.int().nullable().optional(),
            }),
          ])
          .meta({ description: "Your webhook's reachability" }),
      })
      .optional()
      .meta({ description: 'Authenticated callers only' }),
  })
}

export const healthCheckDocs = (): EndpointDocs => ({
  summary: 'Health of the application, its dependencies and your webhook',
  description:
    "Without credentials only `{healthy, status, execTime}` (for uptime probes; a wrong signature is still 401). Any authenticated client also gets `components`: each dependency's status (the detail is in the operator's logs, for no client's reply) and its own webhook's.",
  replies: () => {
    const report = HealthReport()
    return {
      200: { description: 'UP or DEGRADED', data: report },
      503: {
        description: 'DOWN',
        data: report,
        orError: 'The database is unreachable while authenticating a signed request: the error record',
      },
    }
  },
})
