import { streamHandler } from '#lib/platform/async/handlers.ts'
import { isBatchHeader } from '#lib/batches/repository.ts'
import { processBatch } from '#lib/batches/worker.ts'

/** The table's stream -> each newly submitted batch is worked through (lib/service/consumers.ts). */
export const handler = streamHandler('batch-worker', isBatchHeader, (item) =>
  processBatch(String(item.batchId)),
)
