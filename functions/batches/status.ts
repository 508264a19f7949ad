import { apiSignature } from '#lib/auth/api-signature.ts'
import { readBatch } from '#lib/batches/repository.ts'
import { BatchPath } from '#lib/batches/schemas.ts'
import { batchView } from '#lib/batches/views.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { NotFound } from '#lib/http/errors.ts'
import { businessOf } from '#lib/lifecycle/access.ts'

/** GET /api/{v}/app/invoice/batch/{batch_id}: the batch and each item's result; another business's is 404. */
export const handler = apiHandler({ auth: apiSignature, params: BatchPath }, async ({ params, caller }) => {
  const batch = await readBatch(params.batch_id)
  if (!batch || batch.header.businessId !== businessOf(caller).businessId)
    throw new NotFound(`No batch ${params.batch_id} for your business`)
  return { data: batchView(batch.header, batch.items) }
})
