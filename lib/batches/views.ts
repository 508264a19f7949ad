import type { BatchHeader, BatchItem } from './repository.ts'

/** GET /app/invoice/batch/{id}: each item's result exactly as the single endpoint replied it. */
export function batchView(header: BatchHeader, items: BatchItem[]) {
  const succeeded = items.filter((i) => i.status === 'SUCCEEDED').length
  const failed = items.filter((i) => i.status === 'FAILED').length
  const status =
    header.status === 'COMPLETED' ? 'COMPLETED' : succeeded + failed > 0 ? 'PROCESSING' : header.status
  return {
    batch_id: header.batchId,
    action: header.action,
    status,
    total: header.total,
    succeeded,
    failed,
    created_at: header.createdAt,
    ...(header.completedAt ? { completed_at: header.completedAt } : {}),
    items: items.map((i) => ({
      index: i.index,
      irn: i.irn,
      status: i.status,
      ...(i.httpStatus ? { http_status: i.httpStatus } : {}),
      ...(i.status === 'SUCCEEDED' ? { reply: i.reply } : {}),
      ...(i.status === 'FAILED' ? { message: i.message, errors: i.errors } : {}),
    })),
  }
}
