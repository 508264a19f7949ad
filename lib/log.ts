import { Logger } from '@aws-lambda-powertools/logger'

/**
 * Key names whose values never reach a log line, whatever object they are nested in. Tests scan the
 * captured logs of whole suites for the development secrets to keep this list honest.
 */
const REDACTED_KEYS =
  /secret|signature|token|authorization|password|api[-_]?key|x-api-key|credential|cookie|private|note$|payment_terms_note/i

const REDACTED = '[REDACTED]'

/** Replaces the value of any sensitive key with a marker; everything else is logged as is. */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && REDACTED_KEYS.test(key) && value !== undefined && value !== null && value !== '') return REDACTED
  return value
}

/** An identifier that is safe to log: enough to tell keys apart, never enough to use one. */
export function mask(value: string): string {
  if (value.length <= 4) return '****'
  return `${value.slice(0, 4)}****`
}

export const logger = new Logger({
  serviceName: process.env.SERVICE_NAME ?? 'einvoicing-api',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  jsonReplacerFn: redactingReplacer,
})
