import { queueHandler } from '#lib/platform/async/handlers.ts'
import { processBatch } from '#lib/batches/worker.ts'

/** batch-jobs -> the batch worked through (lib/service/consumers.ts); a failed one is delivered again. */
export const handler = queueHandler<{ batchId: string }>('batch-worker', (job) => processBatch(job.batchId))
