import { adminBearer } from '#lib/auth/admin-bearer.ts'
import { emailAdd } from '#lib/endpoints/notifications.ts'
import { apiHandler } from '#lib/http/factory.ts'
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
