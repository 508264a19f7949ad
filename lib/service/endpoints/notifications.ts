import * as z from 'zod'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import {
  EmailRequest,
  TemplateListQuery,
  TemplateParams,
  TemplateReplaceRequest,
  TemplateRequest,
} from '#lib/notifications/schemas.ts'
import { reads, writes } from './common.ts'

/** Area D: notification templates and the admin e-mail list (spec D.1, CONTRACT section 7). */

const notifications = /* @__PURE__ */ endpointsOf({
  domain: 'notifications',
  stack: 'notifications',
  area: 'D',
  auth: 'admin-bearer',
  reply: 'notification',
})

export const templateCreate = /* @__PURE__ */ notifications({
  functionId: 'notification-template-create',
  routes: [{ method: 'POST', path: '/notification/template' }],
  access: { table: [writes(['NTEMPLATE#', 'NTEMPLATEID#', 'COUNTER#', 'AUDIT#'])] },
  request: { body: TemplateRequest },
})
export const templateList = /* @__PURE__ */ notifications({
  functionId: 'notification-template-list',
  routes: [{ method: 'GET', path: '/notification/template' }],
  access: { table: [reads(['NTEMPLATE#'])] },
  request: { query: TemplateListQuery },
})
export const templateReplace = /* @__PURE__ */ notifications({
  functionId: 'notification-template-replace',
  routes: [{ method: 'PUT', path: '/notification/template/{templateId}' }],
  access: { table: [writes(['NTEMPLATE#', 'NTEMPLATEID#', 'AUDIT#'])] },
  request: { params: TemplateParams, body: TemplateReplaceRequest },
})
export const emailAdd = /* @__PURE__ */ notifications({
  functionId: 'notification-email-add',
  routes: [{ method: 'POST', path: '/notification/email' }],
  access: { table: [writes(['NEMAIL', 'AUDIT#'])] },
  request: { body: EmailRequest },
})
export const emailRemove = /* @__PURE__ */ notifications({
  functionId: 'notification-email-remove',
  routes: [{ method: 'DELETE', path: '/notification/email' }],
  access: { table: [writes(['NEMAIL', 'AUDIT#'])] },
  request: { body: EmailRequest },
})

const TemplateItem = /* @__PURE__ */ lazy(() =>
  z
    .object({
      templateID: z.int().meta({ description: 'Allocated atomically' }),
      productCode: z.string(),
      message: z.string().meta({ description: 'The template text, with placeholders such as {{amount}}' }),
      messageType: z.int().meta({ description: '0 successful transaction, 1 failed transaction' }),
      createdAT: z.string(),
      createdBy: z.string(),
      updatedAt: z.string(),
      updatedBy: z.string(),
      version: z.int().meta({ description: 'Incremented by every replacement' }),
    })
    .meta({ id: 'TemplateItem' }),
)

const INVALID = 'The body is invalid: every problem is listed'
const templateExample = {
  message: 'You paid {{amount}} for {{productCode}}',
  messageType: 0,
  productCode: 'AIRTIME',
}
const emailExample = { email: ['ops@example.com'] }

export const templateCreateDocs = (): EndpointDocs => ({
  summary: 'Create a notification template',
  description: 'One template per (productCode, messageType). 201 with the new template.',
  example: templateExample,
  replies: () => ({
    201: { description: 'Created', data: TemplateItem() },
    400: INVALID,
    409: 'A template for this productCode and messageType already exists',
  }),
})

export const templateListDocs = (): EndpointDocs => ({
  summary: "List a product's templates",
  description: 'The templates of `product`, or the one with templateID `tempID`.',
  replies: () => ({
    200: { description: 'The templates', data: z.array(TemplateItem()) },
    400: '`product` is missing, or `tempID` is not a positive integer',
  }),
})

export const templateReplaceDocs = (): EndpointDocs => ({
  summary: 'Replace a notification template',
  description:
    'Replaces the whole template and increments its version. `version`, when sent, must be the stored one (optimistic concurrency).',
  example: { ...templateExample, version: 1 },
  replies: () => ({
    200: { description: 'Replaced', data: TemplateItem() },
    400: INVALID,
    404: 'No template has this templateID',
    409: '`version` is not the stored version, or another template already has this productCode and messageType',
  }),
})

export const emailAddDocs = (): EndpointDocs => ({
  summary: 'Add admin notification e-mail addresses',
  description: 'Adds addresses; ones already listed (in any letter case) are kept once.',
  example: emailExample,
  replies: () => ({ 201: { description: 'Added' }, 400: INVALID }),
})

export const emailRemoveDocs = (): EndpointDocs => ({
  summary: 'Remove admin notification e-mail addresses',
  description: 'Removes addresses (any letter case); an address not on the list is a no-op.',
  example: emailExample,
  replies: () => ({ 200: { description: 'Removed' }, 400: INVALID }),
})
