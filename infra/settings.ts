import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as z from 'zod'
import { MAX_QUOTA, MAX_WINDOW_SECONDS } from '#lib/platform/auth/rate-limit.ts'
import { MAX_REVERSAL_WINDOW_DAYS } from '#lib/ledger/reversal-window.ts'
import { AccountServicer } from '#lib/finance/account-servicer.ts'

/**
 * A stage's settings (CONTRACT 20): one committed file per stage, `infra/stages/<stage>.json`, read
 * and validated at every synth. A deploy with no `-c` flags keeps them all, because they are not
 * flags; a missing or wrong setting stops synth with a message naming the setting and the file.
 * Every field is listed in docs/configuration.md (test/unit/platform/docs-trust.test.ts checks it).
 */

/** The project's root (as infra/constructs/api-function.ts's, without loading the CDK). */
const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url))

/** The route groups a stage throttles (infra/throttles.ts puts each route in one). */
export const THROTTLE_GROUPS = ['signing', 'invoices', 'transfers', 'reads', 'admin', 'unrouted'] as const
export type ThrottleGroup = (typeof THROTTLE_GROUPS)[number]

/** CloudWatch Logs' retention periods in days (PutRetentionPolicy's allowed values). */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const

const throttle = z.strictObject({
  /** Requests per second, steady state, per route of the group. */
  rateLimit: z.int().min(1).max(10_000),
  /** The token bucket's size: requests admitted at once above the rate. */
  burstLimit: z.int().min(1).max(5_000),
})

const hostname = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lower-case DNS name')

export const stageSettingsSchema = z
  .strictObject({
    /** Subscribed to the stage's alarm topic; each address confirms its subscription. */
    alarmEmails: z.array(z.email()),
    /** A custom domain for the API and its ACM certificate (same region), or null for none. */
    domain: z
      .strictObject({
        name: hostname,
        certificateArn: z
          .string()
          .regex(
            /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]{36}$/,
            'an ACM certificate ARN',
          ),
      })
      .nullable(),
    /** The verified SES identity the e-mailing consumers send from, or null (they log instead). */
    ses: z
      .strictObject({
        /** The From address (SES_FROM_ADDRESS). */
        fromAddress: z.email(),
        /** The verified identity it sends under: the address's domain, or the address itself. */
        identity: z.union([z.email(), hostname]),
      })
      .nullable(),
    /** API Gateway's route-level throttles, per route of each group (docs/capacity.md). */
    throttles: z.strictObject(
      Object.fromEntries(THROTTLE_GROUPS.map((group) => [group, throttle])) as Record<
        ThrottleGroup,
        typeof throttle
      >,
    ),
    retention: z.strictObject({
      /** Days the functions' and the access logs' log groups keep their events. */
      logDays: z.union(LOG_RETENTION_DAYS.map((days) => z.literal(days))),
      /** The table's point-in-time recovery (35 days of restores). */
      pointInTimeRecovery: z.boolean(),
      /** RETAIN the table, data key, secrets and log groups when the stack or resource goes. */
      keepOnDelete: z.boolean(),
    }),
    /** The table's deletion protection and the data stack's termination protection. */
    deletionProtection: z.boolean(),
    /** The rate limit of a client that has none of its own (lib/platform/auth/rate-limit.ts). */
    clientLimits: z.strictObject({
      quota: z.int().min(1).max(MAX_QUOTA),
      windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS),
    }),
    /** Area B's bank rules (lib/ledger/reversal-window.ts). */
    ledger: z.strictObject({
      /** Days after a transfer that it may still be reversed (CONTRACT 24: 30). */
      reversalWindowDays: z.int().min(1).max(MAX_REVERSAL_WINDOW_DAYS),
    }),
    /** Area C's statements (lib/finance/statement-formats.ts). */
    statements: z.strictObject({
      /** The operator's institution, camt.053's Acct/Svcr (lib/finance/account-servicer.ts). */
      accountServicer: AccountServicer,
    }),
  })
  .superRefine((settings, ctx) => {
    if (settings.ses && !sendsUnder(settings.ses.fromAddress, settings.ses.identity)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ses', 'identity'],
        message: `${settings.ses.fromAddress} is not sent under ${settings.ses.identity}: give the address's domain or the address itself`,
      })
    }
    // Above the per-client limit: one client meets its own limit (429 in its area's record, with
    // Retry-After) before the stage's throttle (API Gateway's bare 429) is reached (docs/capacity.md).
    const perClient = settings.clientLimits.quota / settings.clientLimits.windowSeconds
    for (const group of THROTTLE_GROUPS) {
      if (group === 'unrouted') continue
      if (settings.throttles[group].rateLimit < perClient) {
        ctx.addIssue({
          code: 'custom',
          path: ['throttles', group, 'rateLimit'],
          message: `${settings.throttles[group].rateLimit}/s is below one client's default limit (${perClient}/s from clientLimits): the stage throttle must sit above the per-client limit`,
        })
      }
    }
  })

export type StageSettings = z.infer<typeof stageSettingsSchema>

const sendsUnder = (address: string, identity: string): boolean =>
  identity.includes('@') ? address === identity : address.endsWith(`@${identity}`)

/** The settings file of a stage, relative to the project root (as messages name it). */
export const settingsFile = (stage: string): string => `infra/stages/${stage}.json`

/** Every setting as a dotted path (`throttles.signing.rateLimit`): docs/configuration.md lists each. */
export function settingPaths(): string[] {
  const walk = (schema: z.ZodType, prefix: string): string[] => {
    const inner = schema instanceof z.ZodNullable ? (schema.unwrap() as z.ZodType) : schema
    if (!(inner instanceof z.ZodObject)) return [prefix]
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) => [
      ...(prefix ? [prefix] : []),
      ...walk(child, prefix ? `${prefix}.${key}` : key),
    ])
  }
  return [...new Set(walk(stageSettingsSchema, ''))]
}

/** Validates a stage's settings; the error names each bad or missing setting and the file. */
export function parseStageSettings(raw: unknown, file: string): StageSettings {
  const parsed = stageSettingsSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.join('.') || '(the file)'
    const missing = issue.path.length > 0 && valueAt(raw, issue.path) === undefined
    return missing
      ? `- "${path}" is missing: it is required (docs/configuration.md lists every setting)`
      : `- "${path}": ${issue.message}`
  })
  throw new Error(`Stage settings ${file} are not valid:\n${problems.join('\n')}`)
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** A stage's committed settings; a stage without a file is refused, naming the file to write. */
export function loadStageSettings(stage: string, root = PROJECT_ROOT): StageSettings {
  const file = settingsFile(stage)
  const path = join(root, file)
  if (!existsSync(path)) {
    throw new Error(
      `stage "${stage}" has no settings file ${file}: copy infra/stages/dev.json to it and set its values (docs/operations.md, "Stage settings")`,
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`Stage settings ${relative(root, path)} are not JSON: ${(error as Error).message}`)
  }
  return parseStageSettings(raw, file)
}
