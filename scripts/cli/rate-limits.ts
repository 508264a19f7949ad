import { setRateLimit } from '#lib/platform/auth/credentials.ts'
import { DEFAULT_RATE_LIMIT, MAX_QUOTA, MAX_WINDOW_SECONDS } from '#lib/platform/auth/rate-limit.ts'
import { fingerprint } from '#lib/platform/log.ts'
import type { Command } from './command.ts'
import { optional, required } from './require.ts'

/**
 * Per-client rate limits (CONTRACT sections 14 and 18, lib/platform/auth/rate-limit.ts). A limit is
 * stored on the credential's own record (a business's on the business record), which every request
 * already reads through the credential cache, so it costs no read of its own; other containers see a
 * change within CREDENTIAL_CACHE_SECONDS, as they see a revocation.
 */

const which = `One of:
  --key API_KEY        an Area A API key
  --switch CLIENT_ID   an Area B switch client
  --token TOKEN        an Area C merchant token or an Area D admin key
  --business ID        a business: the quota all its Area A keys of one mode share, beside each key's own`

const setHelp = `rate-limit set: give one client its own rate limit (the default is ${DEFAULT_RATE_LIMIT.quota} requests every ${DEFAULT_RATE_LIMIT.windowSeconds} s).

${which}
Options:
  --quota N            requests admitted per window, 1 to ${MAX_QUOTA} (required)
  --window S           the window in seconds, 1 to ${MAX_WINDOW_SECONDS} (default ${DEFAULT_RATE_LIMIT.windowSeconds})

Over the limit a request is answered 429 with Retry-After; every authenticated reply carries
RateLimit-Policy and RateLimit.

Example: npm run cli -- rate-limit set --key dev-si-key --quota 600 --window 60`

const clearHelp = `rate-limit clear: put one client back on the default rate limit.

${which}

Example: npm run cli -- rate-limit clear --key dev-si-key`

function credentialOf(values: Record<string, unknown>, help: string) {
  const key = optional(values, 'key')
  const switchClientId = optional(values, 'switch')
  const token = optional(values, 'token')
  const businessId = optional(values, 'business')
  const given = [key, switchClientId, token, businessId].filter((v) => v !== undefined)
  if (given.length !== 1) {
    console.error(`Name exactly one credential.\n\n${help}`)
    process.exit(2)
  }
  if (key) return { credential: { apiKey: key }, label: `API key ${fingerprint(key)}` }
  if (switchClientId) return { credential: { switchClientId }, label: `switch client ${switchClientId}` }
  if (businessId) return { credential: { businessId }, label: `business ${businessId}` }
  return { credential: { token: token! }, label: `token ${fingerprint(token!, 'token')}` }
}

function wholeNumber(value: string, name: string, max: number, help: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > max) {
    console.error(`--${name} must be a whole number from 1 to ${max} (got ${value}).\n\n${help}`)
    process.exit(2)
  }
  return n
}

const CREDENTIAL_OPTIONS = {
  key: { type: 'string' },
  switch: { type: 'string' },
  token: { type: 'string' },
  business: { type: 'string' },
} as const

export const commands: Command[] = [
  {
    name: 'rate-limit set',
    summary: "set one client's own rate limit (requests per window)",
    help: setHelp,
    options: { ...CREDENTIAL_OPTIONS, quota: { type: 'string' }, window: { type: 'string' } },
    async run(values) {
      const { credential, label } = credentialOf(values, setHelp)
      const quota = wholeNumber(required(values, 'quota', setHelp), 'quota', MAX_QUOTA, setHelp)
      const window = optional(values, 'window')
      const windowSeconds = window
        ? wholeNumber(window, 'window', MAX_WINDOW_SECONDS, setHelp)
        : DEFAULT_RATE_LIMIT.windowSeconds
      await setRateLimit(credential, { quota, windowSeconds })
      console.log(`Rate limit of ${label} set to ${quota} requests every ${windowSeconds} s`)
    },
  },
  {
    name: 'rate-limit clear',
    summary: 'put one client back on the default rate limit',
    help: clearHelp,
    options: CREDENTIAL_OPTIONS,
    async run(values) {
      const { credential, label } = credentialOf(values, clearHelp)
      await setRateLimit(credential, undefined)
      console.log(`Rate limit of ${label} back to the default`)
    },
  },
]
