import { apiHandler } from '#lib/http/factory.ts'
import { ApiError } from '#lib/http/errors.ts'

/** Routes whose endpoint is not built yet: authenticated like the final endpoint, then 501. */
export const handler = apiHandler({}, ({ route }) => {
  throw new ApiError(501, `${route.method} ${route.path} is not implemented yet`)
})
