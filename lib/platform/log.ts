import { createHash } from 'node:crypto'
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger'

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

/**
 * A credential as a log line or the CLI names it: `kind:<first 4>:<SHA-256 prefix>`. The first four
 * characters are what a person recognises; the hash prefix tells apart keys that share them (every
 * development key starts `dev-`, every test key `ak_t`). Never enough to use one: a key id of 8
 * characters or fewer shows none of them.
 */
export function fingerprint(value: string, kind = 'key'): string {
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 12)
  return `${kind}:${value.length > 8 ? value.slice(0, 4) : ''}:${hash}`
}

/** The attributes every JSON line has, left out of a human line (they are its start, or noise). */
const LINE_ATTRIBUTES = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'sampling_rate',
  'xray_trace_id',
])

/**
 * The local server's lines when it writes to a terminal (LOG_FORMAT=human, set by
 * scripts/local-server.ts): `12:00:01 200 GET /api/v1/... 12ms key:dev-:9f2c... live` for a request,
 * `12:00:01 WARN message {...}` for anything else, through the same redaction. Lambda and every
 * pipe keep the JSON lines. Powertools prints through printLog, the one place a line is written.
 */
class HumanLogger extends Logger {
  protected override printLog(logLevel: number, log: Parameters<Logger['printLog']>[1]): void {
    log.prepareForPrint()
    const { level, message, timestamp, ...rest } = log.getAttributes() as Record<string, unknown>
    const time = String(timestamp ?? new Date().toISOString()).slice(11, 19)
    const extra = Object.fromEntries(Object.entries(rest).filter(([key]) => !LINE_ATTRIBUTES.has(key)))
    const line =
      message === 'request'
        ? `${time} ${extra.status} ${extra.route} ${extra.durationMs}ms ${extra.caller} ${extra.mode}`
        : `${time} ${level} ${message}${Object.keys(extra).length ? ` ${JSON.stringify(extra, redactingReplacer)}` : ''}`
    ;(logLevel >= 16 ? process.stderr : process.stdout).write(`${line}\n`)
  }
}

/**
 * The keys every line starts with: Powertools' standard set less what the log group already says
 * (`service`, `function_name`, `function_arn`, `function_memory_size`) and `sampling_rate` (no debug
 * sampling here). Every API request writes a line, and CloudWatch Logs bills ingestion by the byte:
 * the five left out were about 240 of a request line's 530 bytes (bench/cost, "log bytes").
 */
class LeanLogFormatter extends LogFormatter {
  override formatAttributes(
    attributes: Parameters<LogFormatter['formatAttributes']>[0],
    additional: Parameters<LogFormatter['formatAttributes']>[1],
  ): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        cold_start: attributes.lambdaContext?.coldStart,
        function_request_id: attributes.lambdaContext?.awsRequestId,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional)
  }
}

let instance: Logger | undefined

/**
 * The Logger is made on first use, not on import: LOG_LEVEL and SERVICE_NAME are read then, so a
 * module that merely imports the logger early (credentials, signing) cannot fix the level before a
 * test or a script has set it. In Lambda the environment is set before any import, so nothing changes.
 */
function current(): Logger {
  instance ??= new (process.env.LOG_FORMAT === 'human' ? HumanLogger : Logger)({
    serviceName: process.env.SERVICE_NAME ?? 'einvoicing-api',
    logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
    jsonReplacerFn: redactingReplacer,
    logFormatter: new LeanLogFormatter(),
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
