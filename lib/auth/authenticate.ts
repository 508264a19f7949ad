import { Forbidden, Unauthorized } from '#lib/http/errors.ts'
import type { Route } from '#lib/routes.ts'
import { verifyApiSignature } from './api-signature.ts'
import { findBearer } from './bearer.ts'
import type { Caller } from './caller.ts'
import { verifySwitchSignature } from './switch-signature.ts'

/** What every auth scheme gets to look at: the request exactly as received. */
export interface AuthRequest {
  route: Route
  method: string
  /** The request target as sent: raw path plus `?` and the raw query string when there is one. */
  target: string
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>
  rawBody: Buffer
}

/** Area C: the merchant's token, and x-Merchant-Id naming that same merchant. */
async function verifyMerchant(request: AuthRequest): Promise<Caller> {
  const token = await findBearer(request.headers.authorization, 'merchant')
  if (!token) throw new Unauthorized('Authorization must carry a valid merchant bearer token')
  if (request.headers['x-merchant-id'] !== token.subjectId) {
    throw new Forbidden('x-Merchant-Id must name the merchant this token was issued to')
  }
  return { scheme: 'merchant-bearer', merchantId: token.subjectId }
}

/** Area D: the notification admin key. */
async function verifyNotifyAdmin(request: AuthRequest): Promise<Caller> {
  const token = await findBearer(request.headers.authorization, 'notify-admin')
  if (!token)
    throw new Unauthorized('Authorization must carry a valid notification admin key as a bearer token')
  return { scheme: 'admin-bearer', adminKeyId: token.subjectId }
}

/** Establishes the caller by the route's auth scheme, or throws the scheme's 401/403. */
export async function authenticate(request: AuthRequest): Promise<Caller> {
  switch (request.route.auth) {
    case 'none':
      return { scheme: 'none' }
    case 'api-signature':
      return verifyApiSignature(request)
    case 'switch-signature':
      return verifySwitchSignature(request)
    case 'merchant-bearer':
      return verifyMerchant(request)
    case 'admin-bearer':
      return verifyNotifyAdmin(request)
  }
}
