import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { nameEnquiry as declaration } from '#lib/service/endpoints/ledger.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { nameEnquiry } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/name-enquiry: the account's holder, currency and status (a read: nothing is recorded). */
export const handler = apiHandler(declaration, switchSignature, async ({ body }) => ({
  data: await nameEnquiry(body),
}))
