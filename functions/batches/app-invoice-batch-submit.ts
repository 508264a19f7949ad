import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { createBatch } from '#lib/batches/repository.ts'
import { batchSubmit } from '#lib/service/endpoints/batches.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/**
 * POST /api/{v}/app/invoice/batch: 202 `{batch_id, status, total, created_at}` with Location. The
 * invoices are checked later, each as the single endpoint would; an Idempotency-Key replays this reply.
 */
export const handler = apiHandler(batchSubmit, apiSignature, async ({ body, caller, version, headers }) => {
  const { businessId, apiKeyId, roles, validationMode } = caller
  const modeHeader = headers['x-validation-mode']
  const batch = await createBatch(
    {
      businessId,
      apiKeyId,
      roles,
      ...(validationMode ? { validationMode } : {}),
      ...(modeHeader !== undefined ? { modeHeader } : {}),
      version: version ?? 'v1',
      action: body.action,
    },
    body.invoices,
  )
  return {
    status: 202,
    headers: { location: `/api/${version ?? 'v1'}/app/invoice/batch/${batch.batchId}` },
    data: {
      batch_id: batch.batchId,
      status: batch.status,
      total: batch.total,
      created_at: batch.createdAt,
    },
  }
})
