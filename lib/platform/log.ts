import { Logger } from '@aws-lambda-powertools/logger'

/**
 * The redaction list: key names whose values never reach a log line, whatever object they are nested
 * in, by category. test/unit/platform/log-redaction.test.ts logs a value of every category through the shared
 * logger and fails if one shows; test/http/platform/log-redaction.test.ts scans the logs of every auth flow.
 * Matching is on the key name, case-insensitive, so `apiKeyId`, `X-Api-Key` and `hmac_secret` are all
 * caught; over-redacting a harmless field costs less than leaking one.
 */
export const REDACTION_LIST: readonly { category: string; pattern: RegExp }[] = [
  { category: 'secrets', pattern: /secret|password|credential|passphrase/i },
  { category: 'signatures', pattern: /signature/i },
  { category: 'tokens', pattern: /token|bearer|cookie|session/i },
  { category: 'authorization headers', pattern: /authorization/i },
  /** The invoice note and the authority's payment_terms_note are encrypted at rest; logs match that. */
  { category: 'notes', pattern: /note$|payment_terms_note/i },
  /** Full API keys (x-api-key, apiKey, apiKeyId): the key is half a credential. */
  { category: 'full API keys', pattern: /api[-_]?key/i },
  { category: 'private keys', pattern: /private|pem$/i },
]

/** True when a key's value is replaced by the redaction marker. */
export function isRedactedKey(key: string): boolean {
  return REDACTION_LIST.some(({ pattern }) => pattern.test(key))
}

export const REDACTED = '[REDACTED]'

/** Replaces the value of any sensitive key with a marker; everything else is logged as is. */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && isRedactedKey(key) && value !== undefined && value !== null && value !== '') return REDACTED
  return value
}

/** An identifier that is safe to log: enough to tell keys apart, never enough to use one. */
export function mask(value: string): string {
  if (value.length <= 4) return '****'
  return `${value.slice(0, 4)}****`
}

let instance: Logger | undefined

/**
 * The Logger is made on first use, not on import: LOG_LEVEL and SERVICE_NAME are read then, so a
 * module that merely imports the logger early (credentials, signing) cannot fix the level before a
 * test or a script has set it. In Lambda the environment is set before any import, so nothing changes.
 */
function current(): Logger {
  instance ??= new Logger({
    serviceName: process.env.SERVICE_NAME ?? 'einvoicing-api',
    logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
    jsonReplacerFn: redactingReplacer,
  })
  return instance
}

/** The shared logger: every line goes through the redaction list above. */
export const logger: Logger = new Proxy({} as Logger, {
  get(_target, property) {
    const target = current()
    const value: unknown = Reflect.get(target, property, target)
    return typeof value === 'function' ? value.bind(target) : value
  },
})
