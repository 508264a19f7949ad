import * as z from 'zod'
import { lazy } from '#lib/platform/http/endpoint.ts'
import type { Role } from '#lib/platform/http/route.ts'

/**
 * Reply descriptions and small records several endpoints' documents share. The error statuses every
 * route of a scheme can give (401, 403, 413, 415, 503, ...) are not declared per endpoint: lib/service/openapi
 * adds them from the route table and the factory (lib/service/openapi/common-replies.ts).
 */

export const INVALID_BODY = 'The body is invalid: every problem is listed, each with its path'
export const NOT_YOURS =
  "business_id is not the caller's business (or the business is not registered): nothing is revealed about other businesses"

/** A problem as a warning on a success reply (CONTRACT section 4). */
export const Warning = /* @__PURE__ */ lazy(() =>
  z.object({
    path: z.string().meta({ description: 'Where, e.g. invoice_line/0/price/price_amount' }),
    code: z.string().meta({ description: 'The rule code, e.g. NG-CO-10, or UNKNOWN_KEY' }),
    message: z.string().meta({ description: 'What was found' }),
  }),
)

export const Irn = () =>
  z.string().meta({
    description: 'Invoice Reference Number: `<invoice_number>-<service_id>-<YYYYMMDD>`',
    examples: ['INV000042-94ND90NR-20261121'],
  })
export const IsoDateTime = () => z.iso.datetime({ offset: true })

/** Area A roles (CONTRACT section 2). */
export const SI: readonly Role[] = ['SI', 'ADMIN']
export const APP: readonly Role[] = ['APP', 'ADMIN']
export const ANY: readonly Role[] = ['SI', 'APP', 'ADMIN']
export const ADMIN_ONLY: readonly Role[] = ['ADMIN']

/**
 * What a business's ADMIN endpoints share (webhook subscriptions, self-service keys, the test clock):
 * signed Area A calls under /api/v1, in the events stack. Spread into a domain's endpointsOf.
 */
export const BUSINESS_ADMIN = {
  stack: 'events',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1'],
  roles: ADMIN_ONLY,
} as const

// The table grants by record kind live with the access model, shared with the consumers.
export { reads, writes } from '#lib/platform/iam/access.ts'

/** `adjustments` of a pulled invoice or a search summary (CONTRACT 16). */
export const Adjustments = /* @__PURE__ */ lazy(() =>
  z
    .object({
      credited: z.number().meta({ description: 'Sum of the signed credit notes (380, 393), 2 decimals' }),
      debited: z.number().meta({ description: 'Sum of the signed debit notes (384), 2 decimals' }),
      remaining: z.number().meta({
        description: 'payable_amount - credited: what credit notes may still take; 0 reads CANCELLED',
      }),
      notes: z.array(
        z.object({
          irn: z.string(),
          invoice_type_code: z.string(),
          amount: z.number().meta({ description: "The note's payable_amount" }),
          issue_date: z.string(),
        }),
      ),
    })
    .meta({ id: 'InvoiceAdjustments', description: 'Credit and debit notes signed against this invoice' }),
)

/** The page of a numbered-page list (merchant history, invoice search): CONTRACT section 7's Envelope. */
export const NumberedPage = () =>
  z.object({
    size: z.int().meta({ description: 'Page size' }),
    number: z.int().meta({ description: "0-based: the request's `page` minus 1 (`page=1` is 0)" }),
    totalElements: z.int(),
    totalPages: z.int(),
  })
