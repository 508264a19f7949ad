import * as z from 'zod'

/** Area D request records (spec D.1, CONTRACT section 7). */
export const MessageType = z.union([z.literal(0), z.literal(1)], {
  error: 'messageType must be the integer 0 (successful transaction) or 1 (failed transaction)',
})
export type MessageType = z.output<typeof MessageType>

export const ProductCode = z
  .string({ error: 'productCode is required: the provider product code the template is for' })
  .regex(/^[A-Za-z0-9_.-]{1,50}$/, 'productCode must be 1 to 50 letters, digits, "_", "." or "-"')

export const TemplateRequest = z.object({
  message: z
    .string({ error: 'message is required: the template text, with placeholders such as {{amount}}' })
    .trim()
    .min(1, 'message must not be empty')
    .max(4000, 'message must be at most 4000 characters'),
  messageType: MessageType,
  productCode: ProductCode,
})
export type TemplateRequest = z.output<typeof TemplateRequest>

/** A PUT replaces the whole template; `version` (optional) must match the stored one. */
export const TemplateReplaceRequest = TemplateRequest.extend({
  version: z.int('version must be an integer').min(1, 'version starts at 1').optional(),
})
export type TemplateReplaceRequest = z.output<typeof TemplateReplaceRequest>

const PositiveId = (name: string) =>
  z
    .string({ error: `${name} must be a positive integer` })
    .regex(/^[1-9]\d{0,14}$/, `${name} must be a positive integer`)
    .transform(Number)

export const TemplateListQuery = z.object({
  product: z
    .string({ error: 'product is required: the product code whose templates to list, e.g. ?product=AIRTIME' })
    .min(1, 'product must not be empty')
    // The product code is part of the templates' key: bounded as ProductCode is.
    .max(50, 'product must be at most 50 characters'),
  tempID: PositiveId('tempID').optional(),
})

export const TemplateParams = z.object({ templateId: PositiveId('templateId') })

export const EmailRequest = z.object({
  email: z
    .array(z.email({ error: 'each entry must be a valid e-mail address, e.g. ops@example.com' }), {
      error: 'email is required: an array of e-mail addresses',
    })
    .min(1, 'email must list at least one address')
    .max(100, 'email may list at most 100 addresses per request'),
})
export type EmailRequest = z.output<typeof EmailRequest>
