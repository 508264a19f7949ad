import type { Caller } from '#lib/auth/caller.ts'
import { Unauthorized } from '#lib/http/errors.ts'

/** The business and API key an Area A request acts for. */
export interface BusinessCaller {
  businessId: string
  apiKeyId: string
}

/**
 * Every invoice service acts for the caller's business. The routes that call this all require an
 * Area A signature, so another scheme here means a route table mistake: refuse rather than guess.
 */
export function businessOf(caller: Caller): BusinessCaller {
  if (caller.scheme !== 'api-signature') {
    throw new Unauthorized(
      'This endpoint needs an Area A signed request (x-api-key, x-api-signature, x-api-timestamp)',
    )
  }
  return { businessId: caller.businessId, apiKeyId: caller.apiKeyId }
}
