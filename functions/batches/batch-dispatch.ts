import { streamHandler } from '#lib/platform/async/handlers.ts'
import { sendMessage } from '#lib/platform/async/queue.ts'
import { isBatchHeader } from '#lib/batches/repository.ts'

/**
 * The table's stream -> each newly submitted batch queued for the batch worker (lib/service/consumers.ts),
 * in the mode its key carries: the batches run side by side there, not one after another per shard.
 */
export const handler = streamHandler('batch-dispatch', isBatchHeader, (item) =>
  sendMessage('batch-jobs', { batchId: String(item.batchId) }),
)
