import { noAuth } from '#lib/auth/authenticate.ts'
import { unrouted } from '#lib/endpoints/meta.ts'
import { apiHandler } from '#lib/http/factory.ts'

/**
 * The API's `$default` route: requests that match no route get 404 (or 405 with Allow) in the
 * record of the area their path belongs to. The factory's route resolution throws before this runs.
 */
export const handler = apiHandler(unrouted, noAuth, () => ({ status: 404 }))
