import * as z from 'zod'
import { endpoint } from '#lib/http/endpoint.ts'
import {
  EmailRequest,
  TemplateListQuery,
  TemplateParams,
  TemplateReplaceRequest,
  TemplateRequest,
} from '#lib/notifications/schemas.ts'

/** Area D: notification templates and the admin e-mail list (spec D.1, CONTRACT section 7). */

export const TemplateItem = z
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
  .meta({ id: 'TemplateItem' })

const INVALID = 'The body is invalid: every problem is listed'
const templateExample = {
  message: 'You paid {{amount}} for {{productCode}}',
  messageType: 0,
  productCode: 'AIRTIME',
}

export const templateCreate = endpoint({
  functionId: 'notification-template-create',
  summary: 'Create a notification template',
  description: 'One template per (productCode, messageType). 201 with the new template.',
  request: { body: TemplateRequest, example: templateExample },
  replies: {
    201: { description: 'Created', data: TemplateItem },
    400: INVALID,
    409: 'A template for this productCode and messageType already exists',
  },
})

export const templateList = endpoint({
  functionId: 'notification-template-list',
  summary: "List a product's templates",
  description: 'The templates of `product`, or the one with templateID `tempID`.',
  request: { query: TemplateListQuery },
  replies: {
    200: { description: 'The templates', data: z.array(TemplateItem) },
    400: '`product` is missing, or `tempID` is not a positive integer',
  },
})

export const templateReplace = endpoint({
  functionId: 'notification-template-replace',
  summary: 'Replace a notification template',
  description:
    'Replaces the whole template and increments its version. `version`, when sent, must be the stored one (optimistic concurrency).',
  request: {
    params: TemplateParams,
    body: TemplateReplaceRequest,
    example: { ...templateExample, version: 1 },
  },
  replies: {
    200: { description: 'Replaced', data: TemplateItem },
    400: INVALID,
    404: 'No template has this templateID',
    409: '`version` is not the stored version, or another template already has this productCode and messageType',
  },
})

const emailExample = { email: ['ops@example.com'] }

export const emailAdd = endpoint({
  functionId: 'notification-email-add',
  summary: 'Add admin notification e-mail addresses',
  description: 'Adds addresses; ones already listed (in any letter case) are kept once.',
  request: { body: EmailRequest, example: emailExample },
  replies: { 201: { description: 'Added' }, 400: INVALID },
})

export const emailRemove = endpoint({
  functionId: 'notification-email-remove',
  summary: 'Remove admin notification e-mail addresses',
  description: 'Removes addresses (any letter case); an address not on the list is a no-op.',
  request: { body: EmailRequest, example: emailExample },
  replies: { 200: { description: 'Removed' }, 400: INVALID },
})

export const emailList = endpoint({
  functionId: 'notification-email-list',
  summary: 'List admin notification e-mail addresses',
  description: 'Every address that is told of transaction outcomes and failed webhook deliveries.',
  request: {},
  replies: { 200: { description: 'The list', data: z.array(z.email()) } },
})
