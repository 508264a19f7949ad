import { Forbidden, Unauthorized } from '#lib/platform/errors.ts'
import type { Verifier } from './authenticate.ts'
import type { MerchantCaller } from './caller.ts'
import { findLimitedBearer, modeOf } from './bearer.ts'
import { refused } from './refusal.ts'

/** Area C: the merchant's token, and x-Merchant-Id naming that same merchant. */
export const merchantBearer: Verifier<'merchant-bearer', MerchantCaller> = {
  scheme: 'merchant-bearer',
  async verify(request) {
    const { headers } = request
    const found = await findLimitedBearer(headers.authorization, 'merchant')
    if (!found) {
      const reason = headers.authorization ? 'unknown_key' : 'missing_credentials'
      throw refused(
        request,
        reason,
        new Unauthorized('Authorization must carry a valid merchant bearer token'),
      )
    }
    const { token } = found
    if (headers['x-merchant-id'] !== token.subjectId) {
      throw refused(
        request,
        'merchant_mismatch',
        new Forbidden('x-Merchant-Id must name the merchant this token was issued to'),
        token.subjectId,
      )
    }
    return {
      scheme: 'merchant-bearer',
      merchantId: token.subjectId,
      mode: modeOf(token),
      rate: await found.admit(),
    }
  },
}
