import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { emailList } from '#lib/service/endpoints/email-list.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { listEmails } from '#lib/notifications/emails.ts'

/** GET /notification/email: the admin notification e-mail list. */
export const handler = apiHandler(emailList, adminBearer, async () => {
  const emails = await listEmails()
  return {
    message: `${emails.length} e-mail address${emails.length === 1 ? '' : 'es'} on the list`,
    data: emails,
  }
})
