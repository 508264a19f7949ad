import * as z from 'zod'
import { BatchPath, BatchRequest } from '#lib/batches/schemas.ts'
import { BATCH_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import { APP, reads, writes } from './common.ts'

/** Batches of invoices to validate or sign (CONTRACT section 11; docs/events.md in prose). */

const batches = /* @__PURE__ */ endpointsOf({
  domain: 'batches',
  stack: 'events',
  area: 'A',
  auth: 'api-signature',
  reply: 'record',
  versions: ['v1', 'v2'],
  roles: APP,
})

// Accepted here, worked through by the batch worker (lib/service/consumers.ts).
export const batchSubmit = /* @__PURE__ */ batches({
  functionId: 'app-invoice-batch-submit',
  routes: [{ method: 'POST', path: '/app/invoice/batch' }],
  // The items (up to 100) go in with BatchWriteItem, 25 a call, then the header with a conditional
  // put: 101 writes, one more than a transaction takes. The header is the commit point (items without
  // one are never read and expire), so the bulk grant is limited to the batch partitions it writes.
  access: { table: [writes([BATCH_PREFIX]), { actions: ['BatchWriteItem'], keys: [BATCH_PREFIX] }] },
  // An invoice may be a UBL 2.1 document as a string (CONTRACT 22), read by the worker as an XML body is.
  request: { body: BatchRequest, documentPaths: /^invoices\/\d+$/ },
})
export const batchStatus = /* @__PURE__ */ batches({
  functionId: 'app-invoice-batch-status',
  routes: [{ method: 'GET', path: '/app/invoice/batch/{batch_id}' }],
  access: { table: [reads([BATCH_PREFIX])] },
  request: { params: BatchPath },
})

const BatchItem = /* @__PURE__ */ lazy(() =>
  z.object({
    index: z.int(),
    irn: z.string().nullable(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    http_status: z.int().optional().meta({ description: 'What the single endpoint answered' }),
    reply: z.record(z.string(), z.unknown()).optional().meta({ description: "The single endpoint's reply" }),
    message: z.string().optional(),
    errors: z.array(z.unknown()).optional().meta({ description: "The single endpoint's errors" }),
  }),
)

const INVALID = 'The body is invalid: every problem is listed'

export const batchSubmitDocs = (): EndpointDocs => ({
  summary: 'Submit 1 to 100 invoices to validate or sign',
  description:
    'Answers 202 with Location; each invoice is then handled exactly as POST /app/invoice/validate or /sign would (both sign, CONTRACT section 5), once. An invoice may be a UBL 2.1 Invoice or CreditNote as a string (CONTRACT 22), handled as the same document sent with Content-Type: application/xml. An Idempotency-Key replays the first reply. batch.completed is sent when every item has its result.',
  exampleFile: 'docs/examples/batch-v1.json',
  replies: () => ({
    202: {
      description: 'Accepted; the Location header is where its status is read',
      headers: { Location: 'The batch status URL' },
      data: z.object({
        batch_id: z.string(),
        status: z.literal('ACCEPTED'),
        total: z.int(),
        created_at: z.string(),
      }),
    },
    400: INVALID,
    409: 'The Idempotency-Key was used with another body',
  }),
})

export const batchStatusDocs = (): EndpointDocs => ({
  summary: 'A batch and each item result',
  description: "Another business's batch is 404.",
  replies: () => ({
    200: {
      description: 'The batch',
      data: z.object({
        batch_id: z.string(),
        action: z.enum(['validate', 'sign']),
        status: z.enum(['ACCEPTED', 'PROCESSING', 'COMPLETED']),
        total: z.int(),
        succeeded: z.int(),
        failed: z.int(),
        created_at: z.string(),
        completed_at: z.string().optional(),
        items: z.array(BatchItem()),
      }),
    },
    400: 'The batch id in the path is invalid',
    404: 'No batch with this id for your business',
  }),
})
