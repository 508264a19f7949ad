import { currentMode } from '#lib/platform/mode.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { refusedBy, transact } from '#lib/platform/db/transact.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { eventPut, newEvent } from '#lib/events/event.ts'
import { toApiError } from '#lib/platform/http/errors.ts'
import { firsErrorDetails } from '#lib/platform/http/replies.ts'
import { handleInvoice, type InvoiceAction } from '#lib/invoice/service.ts'
import { CALLER_ITEMS } from '#lib/invoice/sign-items.ts'
import { logger } from '#lib/platform/log.ts'
import { signBytes } from '#lib/platform/signing/signer.ts'
import {
  type BatchAction,
  type BatchHeader,
  type BatchItem,
  invoiceOfItem,
  itemResultUpdate,
  markProcessing,
  readBatch,
  recordItemResult,
} from './repository.ts'

/**
 * Works through a batch (lib/service/consumers.ts: started by the header's insertion on the stream). Each
 * PENDING item is handled by the single endpoint's own service (lib/invoice/service.ts handleInvoice)
 * as the submitting client, and its result is committed in the same transaction as the invoice write
 * (or, when the invoice needs no write, on its own while the item is still PENDING). So however often
 * the worker is retried or killed, each item takes effect once and keeps its first result. The last
 * step marks the batch COMPLETED with its batch.completed event, again in one transaction.
 */

/**
 * The single endpoint each action replays: both are the APP endpoints of the same name under
 * /app/invoice/, and app/invoice/validate also signs (CONTRACT section 5).
 */
const SINGLE_ENDPOINT_ACTION: Record<BatchAction, InvoiceAction> = { validate: 'sign', sign: 'sign' }

/**
 * Items handled at once per batch: 8 by default; BATCH_ITEM_CONCURRENCY (1 to 32) sets it, e.g. lower
 * to spare a busy table's capacity.
 */
function itemConcurrency(): number {
  const wanted = Number(process.env.BATCH_ITEM_CONCURRENCY ?? 8)
  return Number.isInteger(wanted) && wanted >= 1 && wanted <= 32 ? wanted : 8
}

const callerOf = (h: BatchHeader): ApiClientCaller => ({
  scheme: 'api-signature',
  apiKeyId: h.apiKeyId,
  businessId: h.businessId,
  // The batch runs in the mode its key carries (lib/platform/async/handlers.ts), which is its submitter's.
  mode: currentMode(),
  roles: h.roles,
  ...(h.validationMode ? { validationMode: h.validationMode } : {}),
})

async function processItem(header: BatchHeader, item: BatchItem): Promise<void> {
  try {
    const reply = await handleInvoice(
      {
        action: SINGLE_ENDPOINT_ACTION[header.action],
        sign: signBytes,
        version: header.version,
        caller: callerOf(header),
        body: invoiceOfItem(item),
        modeHeader: header.modeHeader,
      },
      (written) => [
        { Update: itemResultUpdate(item, { status: 'SUCCEEDED', httpStatus: 200, reply: { ...written } }) },
      ],
    )
    // No-op when the write above already recorded it.
    await recordItemResult(item, { status: 'SUCCEEDED', httpStatus: 200, reply: { ...reply } })
  } catch (error) {
    // A domain error is the reply the single endpoint would have given: the item's result.
    const refused = toApiError(error)
    // A 503 (a key or a store briefly unreachable) is no answer about the invoice: the stream retries
    // the batch and the item gets its real result then.
    if (refused && refused.status < 500) {
      const details = firsErrorDetails(refused)
      await recordItemResult(item, {
        status: 'FAILED',
        httpStatus: refused.status,
        message: details.message,
        errors: details.errors,
      })
      return
    }
    // The item's own condition failed inside the invoice transaction: another run recorded it.
    if (refusedBy(error, CALLER_ITEMS)) return
    throw error
  }
}

export async function processBatch(batchId: string): Promise<void> {
  const batch = await readBatch(batchId)
  if (!batch || batch.header.status === 'COMPLETED') return
  await markProcessing(batchId)
  // A few items at a time: each is an independent request to the single endpoint's service, whose
  // conditional writes already keep two requests for one IRN apart.
  const pending = batch.items.filter((i) => i.status === 'PENDING')
  await Promise.all(
    Array.from({ length: Math.min(itemConcurrency(), pending.length) }, async () => {
      for (let item = pending.shift(); item; item = pending.shift()) await processItem(batch.header, item)
    }),
  )
  const done = await readBatch(batchId)
  if (!done) return
  const succeeded = done.items.filter((i) => i.status === 'SUCCEEDED').length
  const failed = done.items.filter((i) => i.status === 'FAILED').length
  if (succeeded + failed < done.header.total) throw new Error(`Batch ${batchId}: items still pending`)
  const at = new Date().toISOString()
  const event = newEvent(
    'batch.completed',
    done.header.businessId,
    {
      batch_id: batchId,
      action: done.header.action,
      status: 'COMPLETED',
      total: done.header.total,
      succeeded,
      failed,
    },
    at,
  )
  const outcome = await transact({
    batch: {
      Update: {
        TableName: tableName(),
        Key: keys.batch(batchId),
        UpdateExpression: 'SET #status = :completed, succeeded = :s, failed = :f, completedAt = :at',
        ConditionExpression: '#status <> :completed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'COMPLETED', ':s': succeeded, ':f': failed, ':at': at },
      },
    },
    event: eventPut(event),
  })
  // Already COMPLETED by another run: its event was written with it.
  if (!outcome.ok && outcome.failed.includes('batch')) return
  if (!outcome.ok) throw outcome.error
  logger.info('batch completed', { batchId, succeeded, failed })
}
