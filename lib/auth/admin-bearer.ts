import { Unauthorized } from '#lib/errors.ts'
import type { Verifier } from './authenticate.ts'
import type { AdminCaller } from './caller.ts'
import { findBearer } from './bearer.ts'

/** Area D: the notification admin key. */
export const adminBearer: Verifier<'admin-bearer', AdminCaller> = {
  scheme: 'admin-bearer',
  async verify({ headers }) {
    const token = await findBearer(headers.authorization, 'notify-admin')
    if (!token) {
      throw new Unauthorized('Authorization must carry a valid notification admin key as a bearer token')
    }
    return { scheme: 'admin-bearer', adminKeyId: token.subjectId }
  },
}
