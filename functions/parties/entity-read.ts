import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { entity } from '#lib/service/endpoints/parties.ts'
import { invalid } from '#lib/platform/errors.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { entityOf } from '#lib/parties/exchange.ts'

/** GET /api/v1/entity/{id} and GET /api/v1/entity?reference=: the caller's own business. */
export const handler = apiHandler(entity, apiSignature, async ({ params, query, caller }) => {
  const reference = params.id ?? query.reference
  if (reference === undefined)
    throw invalid(
      [
        {
          path: 'query/reference',
          code: 'FIELD_REQUIRED',
          message: 'reference is required: your business id, TIN or service id',
        },
      ],
      'The request query string is invalid',
    )
  return { data: await entityOf(caller.businessId, reference) }
})
