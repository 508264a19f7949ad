import { Unauthorized } from '#lib/platform/errors.ts'
import type { Verifier } from './authenticate.ts'
import type { AdminCaller } from './caller.ts'
import { findLimitedBearer, modeOf } from './bearer.ts'
import { refused } from './refusal.ts'

/** Area D: the notification admin key. */
export const adminBearer: Verifier<'admin-bearer', AdminCaller> = {
  scheme: 'admin-bearer',
  async verify(request) {
    const found = await findLimitedBearer(request.headers.authorization, 'notify-admin')
    if (!found) {
      const reason = request.headers.authorization ? 'unknown_key' : 'missing_credentials'
      throw refused(
        request,
        reason,
        new Unauthorized('Authorization must carry a valid notification admin key as a bearer token'),
      )
    }
    return {
      scheme: 'admin-bearer',
      adminKeyId: found.token.subjectId,
      mode: modeOf(found.token),
      rate: await found.admit(),
    }
  },
}
