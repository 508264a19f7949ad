import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { emailRemove } from '#lib/service/endpoints/notifications.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { removeEmails } from '#lib/notifications/emails.ts'

/** DELETE /notification/email: removes addresses (any letter case); an absent one is a no-op. */
export const handler = apiHandler(emailRemove, adminBearer, async ({ body, caller }) => {
  const { removed, notPresent } = await removeEmails(body.email, caller.adminKeyId)
  const note = notPresent.length ? ` (${notPresent.length} not on the list)` : ''
  return { message: `${removed.length} e-mail address${removed.length === 1 ? '' : 'es'} removed${note}` }
})
