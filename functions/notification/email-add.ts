import { adminBearer } from '#lib/auth/admin-bearer.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { addEmails } from '#lib/notifications/emails.ts'
import { adminOf } from '#lib/notifications/admin.ts'
import { EmailRequest } from '#lib/notifications/schemas.ts'

/** POST /notification/email: adds addresses; ones already listed (in any letter case) are kept once. */
export const handler = apiHandler({ auth: adminBearer, body: EmailRequest }, async ({ body, caller }) => {
  const { added, alreadyPresent } = await addEmails(body.email, adminOf(caller))
  const note = alreadyPresent.length ? ` (${alreadyPresent.length} already on the list)` : ''
  return {
    status: 201,
    message: `${added.length} e-mail address${added.length === 1 ? '' : 'es'} added${note}`,
  }
})
