import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { unrouted } from '#lib/service/endpoints/meta.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
// By its #functions/ name: the catch-all's bundle replaces this module with the table as data.
import { resolveUnrouted } from '#functions/meta/route-table.ts'

/**
 * The API's `$default` route: requests that match no route get 404 (or 405 with Allow) in the
 * record of the area their path belongs to. The factory's route resolution answers before this runs.
 */
export const handler = apiHandler(unrouted, noAuth, () => ({ status: 404 }), { resolveUnrouted })
