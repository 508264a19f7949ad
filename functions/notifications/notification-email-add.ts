import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { emailAdd } from '#lib/service/endpoints/notifications.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { addEmails } from '#lib/notifications/emails.ts'

/** POST /notification/email: adds addresses; ones already listed (in any letter case) are kept once. */
export const handler = apiHandler(emailAdd, adminBearer, async ({ body, caller }) => {
  const { added, alreadyPresent } = await addEmails(body.email, caller.adminKeyId)
  const note = alreadyPresent.length ? ` (${alreadyPresent.length} already on the list)` : ''
  return {
    status: 201,
    message: `${added.length} e-mail address${added.length === 1 ? '' : 'es'} added${note}`,
  }
})
