import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { reads } from './common.ts'

/**
 * GET /notification/email: in a module of its own, because it takes no request schema: its function
 * bundles no zod schema at all (notifications.ts imports the Area D request schemas).
 */

export const emailList = /* @__PURE__ */ endpointsOf({
  domain: 'notifications',
  stack: 'notifications',
  area: 'D',
  auth: 'admin-bearer',
  reply: 'notification',
})({
  functionId: 'notification-email-list',
  routes: [{ method: 'GET', path: '/notification/email' }],
  access: { table: [reads(['NEMAIL'])] },
  request: {},
})

export const emailListDocs = (): EndpointDocs => ({
  summary: 'List admin notification e-mail addresses',
  description: 'Every address that is told of transaction outcomes and failed webhook deliveries.',
  replies: () => ({ 200: { description: 'The list', data: z.array(z.email()) } }),
})
