import { currentMode } from '#lib/platform/mode.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { refusedBy, transact } from '#lib/platform/db/transact.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { eventPut, newEvent } from '#lib/events/event.ts'
import { type ApiError, toApiError } from '#lib/platform/http/errors.ts'
import { type DomainError, TooLarge } from '#lib/platform/errors.ts'
import { firsErrorDetails } from '#lib/platform/http/replies.ts'
import { asInvoiceInput } from '#lib/invoice/input.ts'
import { readUbl } from '#lib/documents/ubl-in-loader.ts'
import { handleInvoice, type InvoiceAction } from '#lib/invoice/service.ts'
import { CALLER_ITEMS } from '#lib/invoice/sign-items.ts'
import { logger } from '#lib/platform/log.ts'
import { signBytes } from '#lib/platform/signing/signer.ts'
import {
  type BatchAction,
  type BatchHeader,
  type BatchItem,
  claimAttempt,
  ITEM_RESULT_ROOM_BYTES,
  type ItemResult,
  invoiceOfItem,
  itemBytesWith,
  itemResultUpdate,
  markProcessing,
  readBatch,
  recordItemResult,
} from './repository.ts'

/**
 * Works through a batch (lib/service/consumers.ts: queued when its header is inserted). Each
 * PENDING item is handled by the single endpoint's own service (lib/invoice/service.ts handleInvoice)
 * as the submitting client, and its result is committed in the same transaction as the invoice write
 * (or, when the invoice needs no write, on its own while the item is still PENDING). So however often
 * the worker is retried or killed, each item takes effect once and keeps its first result. The last
 * step marks the batch COMPLETED with its batch.completed event, again in one transaction.
 *
 * Nothing stalls a batch (CONTRACT 18): a result too large for the item is a FAILED item saying so
 * (BATCH_RESULT_TOO_LARGE, decided before the invoice's write), and a fault that is no answer about
 * the invoice is tried at most MAX_ITEM_ATTEMPTS times, then fails the item
 * (BATCH_ITEM_RETRIES_EXHAUSTED). Batches are separate queue messages, so none waits on another's.
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

/**
 * Times an item is taken up before a failure that is no answer about the invoice (a 503, a fault of
 * ours) fails it for good: counted on the item before each attempt, so a run killed mid-item counts too.
 */
const MAX_ITEM_ATTEMPTS = 3

const RESULT_TOO_LARGE_CODE = 'BATCH_RESULT_TOO_LARGE'
const RETRIES_EXHAUSTED_CODE = 'BATCH_ITEM_RETRIES_EXHAUSTED'

const SIGN_ALONE = 'send this invoice on its own (POST /api/v1/app/invoice/sign) to get its whole reply'

/** The 413 that stands for a result too large to keep in the item (nothing of the invoice is written). */
function resultTooLarge(bytes: number): DomainError {
  const message = `The item's result is ${bytes} bytes, more than the ${ITEM_RESULT_ROOM_BYTES} a batch item can hold: ${SIGN_ALONE}`
  return new TooLarge(message, { problems: [{ path: '', code: RESULT_TOO_LARGE_CODE, message }] })
}

const failedWith = (refused: ApiError): ItemResult => {
  const details = firsErrorDetails(refused)
  return { status: 'FAILED', httpStatus: refused.status, message: details.message, errors: details.errors }
}

/** The result the item can keep: `result`, or the failure saying it was too large to keep. */
function storable(item: BatchItem, result: ItemResult): ItemResult {
  const bytes = itemBytesWith(item, result)
  return bytes <= ITEM_RESULT_ROOM_BYTES ? result : failedWith(toApiError(resultTooLarge(bytes))!)
}

function retriesExhausted(attempts: number): ItemResult {
  const message = `The item could not be processed after ${attempts} attempts (a fault on our side, not a problem with the invoice): submit it again`
  return {
    status: 'FAILED',
    httpStatus: 503,
    message,
    errors: [{ path: '', code: RETRIES_EXHAUSTED_CODE, message }],
  }
}

/**
 * One item, once: its result recorded, or (a fault worth another try, within MAX_ITEM_ATTEMPTS) the
 * error thrown for the batch to be delivered again.
 */
async function processItem(header: BatchHeader, item: BatchItem): Promise<void> {
  const attempt = await claimAttempt(item)
  if (attempt === undefined) return
  // The run before died on this item's last attempt (killed, out of time or memory).
  if (attempt > MAX_ITEM_ATTEMPTS) {
    await recordItemResult(item, retriesExhausted(attempt - 1))
    return
  }
  try {
    const reply = await handleInvoice(
      {
        action: SINGLE_ENDPOINT_ACTION[header.action],
        sign: signBytes,
        readUbl,
        version: header.version,
        caller: callerOf(header),
        // An item sent as a UBL string is read as an XML body is (CONTRACT 22).
        body: asInvoiceInput(invoiceOfItem(item)),
        modeHeader: header.modeHeader,
      },
      (written) => {
        // Decided before the invoice's write: a result the item cannot keep refuses the write.
        const result: ItemResult = { status: 'SUCCEEDED', httpStatus: 200, reply: { ...written } }
        const bytes = itemBytesWith(item, result)
        if (bytes > ITEM_RESULT_ROOM_BYTES) throw resultTooLarge(bytes)
        return [{ Update: itemResultUpdate(item, result) }]
      },
    )
    // No-op when the write above already recorded it.
    await recordItemResult(
      item,
      storable(item, { status: 'SUCCEEDED', httpStatus: 200, reply: { ...reply } }),
    )
  } catch (error) {
    // A domain error is the reply the single endpoint would have given: the item's result.
    const refused = toApiError(error)
    // A 503 (a key or a store briefly unreachable) is no answer about the invoice: the batch is
    // delivered again and the item gets its real result then, up to its last attempt.
    if (refused && refused.status < 500) {
      await recordItemResult(item, storable(item, failedWith(refused)))
      return
    }
    // The item's own condition failed inside the invoice transaction: another run recorded it.
    if (refusedBy(error, CALLER_ITEMS)) return
    if (attempt < MAX_ITEM_ATTEMPTS) throw error
    logger.error('batch item failed on its last attempt', { batchId: item.batchId, index: item.index, error })
    await recordItemResult(item, retriesExhausted(attempt))
  }
}

export async function processBatch(batchId: string): Promise<void> {
  const batch = await readBatch(batchId)
  if (!batch || batch.header.status === 'COMPLETED') return
  await markProcessing(batchId)
  // A few items at a time: each is an independent request to the single endpoint's service, whose
  // conditional writes already keep two requests for one IRN apart.
  // An item that fails does not stop the others: the batch is delivered again for it afterwards.
  const pending = batch.items.filter((i) => i.status === 'PENDING')
  const faults: unknown[] = []
  await Promise.all(
    Array.from({ length: Math.min(itemConcurrency(), pending.length) }, async () => {
      for (let item = pending.shift(); item; item = pending.shift())
        await processItem(batch.header, item).catch((error: unknown) => faults.push(error))
    }),
  )
  if (faults.length) throw faults[0]
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
