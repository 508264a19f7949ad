import type { Role } from '#lib/platform/http/route.ts'
import { fingerprint } from '#lib/platform/log.ts'
import type { Mode } from '#lib/platform/mode.ts'
import type { RateState } from './rate-limit.ts'

/** What every authenticated caller has: its credential's mode, and its rate limit window. */
interface Limited {
  /** live or test (CONTRACT section 15): the request reads and writes that mode's records only. */
  mode: Mode
  /** Where it stands in its rate limit window (lib/platform/auth/rate-limit.ts). */
  rate?: RateState
}

/** An Area A client, established by its signature (CONTRACT section 2). */
export interface ApiClientCaller extends Limited {
  scheme: 'api-signature'
  apiKeyId: string
  businessId: string
  roles: Role[]
  webhookUrl?: string
  /** The client's default invoice validation mode, when it has one. */
  validationMode?: 'strict' | 'lenient'
}

/** The health check without credentials. */
export interface AnonymousCaller {
  scheme: 'anonymous'
}

/** The payment switch, established by its signature (CONTRACT section 6). */
export interface SwitchCaller extends Limited {
  scheme: 'switch-signature'
  switchClientId: string
}

/** A merchant, by its bearer token and x-Merchant-Id (CONTRACT section 7). */
export interface MerchantCaller extends Limited {
  scheme: 'merchant-bearer'
  merchantId: string
}

/** The notification administrator, by its bearer key. */
export interface AdminCaller extends Limited {
  scheme: 'admin-bearer'
  adminKeyId: string
}

/** Routes anyone may call. */
export interface PublicCaller {
  scheme: 'none'
}

/** Who is calling, as established by the route's auth scheme. */
export type Caller =
  | PublicCaller
  | AnonymousCaller
  | ApiClientCaller
  | SwitchCaller
  | MerchantCaller
  | AdminCaller

/**
 * Who a log line says called (issue 34: one integrator found in the logs): an API key's or an admin
 * key's fingerprint, the switch client's and the merchant's own ids (identifiers, not secrets), or
 * `anonymous`. `keyId` is what a refused request presented, before any caller was established.
 */
export function callerLabel(scheme: Caller['scheme'], keyId: string | undefined): string {
  if (!keyId) return 'anonymous'
  switch (scheme) {
    case 'api-signature':
      return fingerprint(keyId, 'key')
    case 'admin-bearer':
      return fingerprint(keyId, 'admin')
    case 'switch-signature':
      return `switch:${keyId}`
    case 'merchant-bearer':
      return `merchant:${keyId}`
    default:
      return 'anonymous'
  }
}

/** The established caller's label (callerLabel). */
export function labelOf(caller: Caller): string {
  switch (caller.scheme) {
    case 'api-signature':
      return callerLabel(caller.scheme, caller.apiKeyId)
    case 'admin-bearer':
      return callerLabel(caller.scheme, caller.adminKeyId)
    case 'switch-signature':
      return callerLabel(caller.scheme, caller.switchClientId)
    case 'merchant-bearer':
      return callerLabel(caller.scheme, caller.merchantId)
    default:
      return 'anonymous'
  }
}
