import { adminBearer } from '#lib/auth/admin-bearer.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { adminOf } from '#lib/notifications/admin.ts'
import { removeEmails } from '#lib/notifications/emails.ts'
import { EmailRequest } from '#lib/notifications/schemas.ts'

/** DELETE /notification/email: removes addresses (any letter case); an absent one is a no-op. */
export const handler = apiHandler({ auth: adminBearer, body: EmailRequest }, async ({ body, caller }) => {
  const { removed, notPresent } = await removeEmails(body.email, adminOf(caller))
  const note = notPresent.length ? ` (${notPresent.length} not on the list)` : ''
  return { message: `${removed.length} e-mail address${removed.length === 1 ? '' : 'es'} removed${note}` }
})
