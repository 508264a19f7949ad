import * as z from 'zod'
import { Problem } from '#lib/invoice/api-records.ts'

/**
 * The reply records of Areas B, C and D as lib/http/replies.ts writes them, for the OpenAPI document.
 * The areas' own engineers may replace the generic `data` with their records through the registry.
 */

const generic = z.record(z.string(), z.unknown())

/** Area B success: the handler's fields plus these (CONTRACT section 6). */
export const BankRecord = z.looseObject({
  responseCode: z.string().meta({ description: '"00" on success' }),
  responseMessage: z.string(),
  responseStatus: z.enum(['SUCCESS', 'FAILED']),
  traceId: z.uuid(),
  timestamp: z.iso.datetime(),
})

/** Areas B and C failure: 91-95 for signature failures (B), other non-00 codes otherwise. */
export const ResponseCodeError = z.object({
  responseCode: z.string(),
  responseMessage: z.string(),
  responseStatus: z.literal('FAILED'),
  traceId: z.uuid(),
  errors: z.array(Problem).optional(),
  timestamp: z.string(),
})

/** Area C success envelope (C.1). */
export const merchantEnvelopeOf = (data: z.ZodType) =>
  z.object({
    responseStatus: z.literal('SUCCESS'),
    responseMessage: z.string(),
    responseCode: z.literal('00'),
    traceId: z.uuid(),
    data,
    timestamp: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS, Lagos time' }),
  })

/** Area D: `{status, message, data?}` on success and failure alike. */
export const notificationReplyOf = (data?: z.ZodType) =>
  z.object({
    status: z.int().meta({ description: 'The HTTP status code' }),
    message: z.string(),
    ...(data ? { data: data.optional() } : {}),
  })
export const NotificationError = z.object({
  status: z.int(),
  message: z.string(),
  errors: z.array(Problem).optional(),
})

export const GenericObject = generic

export function areaRecordComponents(): Record<string, z.ZodType> {
  return { ResponseCodeError, NotificationError }
}
