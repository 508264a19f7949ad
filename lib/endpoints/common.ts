import * as z from 'zod'
import type { IndexName } from '#lib/db/table.ts'
import { lazy } from '#lib/http/endpoint.ts'
import type { Role } from '#lib/route.ts'
import type { TableGrant } from '#lib/iam/access.ts'

/**
 * Reply descriptions and small records several endpoints' documents share. The error statuses every
 * route of a scheme can give (401, 403, 413, 415, 503, ...) are not declared per endpoint: lib/openapi
 * adds them from the route table and the factory (lib/openapi/common-replies.ts).
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
    description: 'Invoice Reference Number: <invoice_number>-<service_id>-<YYYYMMDD>',
    examples: ['INV000042-94ND90NR-20261121'],
  })
export const IsoDateTime = () => z.iso.datetime({ offset: true })

/** Area A roles (CONTRACT section 2). */
export const SI: readonly Role[] = ['SI', 'ADMIN']
export const APP: readonly Role[] = ['APP', 'ADMIN']
export const ANY: readonly Role[] = ['SI', 'APP', 'ADMIN']
export const ADMIN_ONLY: readonly Role[] = ['ADMIN']

const INDEXES = ['gsi1', 'gsi2', 'gsi3'] as const
const READS = ['GetItem', 'BatchGetItem', 'Query'] as const
const WRITES = [...READS, 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] as const

/**
 * Table grants by the partition-key prefixes a function's records live under (dynamodb:LeadingKeys):
 * `reads(...)` may get and query them (and the named indexes), `writes(...)` may also change them.
 */
export const reads = (keys: readonly string[], indexes: readonly IndexName[] = []): TableGrant => ({
  actions: READS,
  keys,
  ...(indexes.length ? { indexes } : {}),
})
export const writes = (keys: readonly string[], indexes: readonly IndexName[] = []): TableGrant => ({
  actions: WRITES,
  keys,
  ...(indexes.length ? { indexes } : {}),
})
/** Every key and index: only where a function's keys cannot be named in advance (say why where used). */
export const READ_ANY: TableGrant = { actions: READS, indexes: INDEXES }
export const WRITE_ANY: TableGrant = { actions: WRITES, indexes: INDEXES }
