import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { readBatch } from '#lib/batches/repository.ts'
import { batchView } from '#lib/batches/views.ts'
import { batchStatus } from '#lib/service/endpoints/batches.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { NotFound } from '#lib/platform/errors.ts'

/** GET /api/{v}/app/invoice/batch/{batch_id}: the batch and each item's result; another business's is 404. */
export const handler = apiHandler(batchStatus, apiSignature, async ({ params, caller }) => {
  const batch = await readBatch(params.batch_id)
  if (!batch || batch.header.businessId !== caller.businessId)
    throw new NotFound(`No batch ${params.batch_id} for your business`)
  return { data: batchView(batch.header, batch.items) }
})
