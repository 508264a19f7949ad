import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { config } from '#lib/platform/config.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { authorityKey } from '#lib/qr/authority-key.ts'
import { signingKey } from '#lib/platform/signing/key-source.ts'

export type ComponentStatus = 'UP' | 'DOWN'

export interface DependencyResult {
  status: ComponentStatus
  /** Shown to ADMIN callers only. */
  detail: Record<string, unknown>
}

/** A health check must answer fast even when a dependency does not. */
const CHECK_TIMEOUT_MS = 1500

const elapsed = (started: number) => Math.round(performance.now() - started)

/**
 * A real round trip to the table: a read of a probe key (which need not exist). Eventually
 * consistent: it proves the table answers as well as a consistent read does, at half its unit.
 */
async function dynamodb(): Promise<DependencyResult> {
  const started = performance.now()
  try {
    await db().send(new GetCommand({ TableName: tableName(), Key: keys.healthProbe() }), {
      abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    })
    return { status: 'UP', detail: { latencyMs: elapsed(started), table: tableName() } }
  } catch (error) {
    return { status: 'DOWN', detail: { latencyMs: elapsed(started), error: (error as Error).name } }
  }
}

/** Rejects after `ms`, so a hanging key load (Secrets Manager unreachable) cannot hold the reply. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref(),
    ),
  ])

/** The QR authority key pair is loaded (generated on first use locally; from Secrets Manager in AWS). */
async function qrAuthorityKey(): Promise<DependencyResult> {
  const started = performance.now()
  try {
    const key = await within(authorityKey(), CHECK_TIMEOUT_MS)
    return {
      status: 'UP',
      detail: { latencyMs: elapsed(started), keyId: key.keyId, source: key.source, algorithm: 'RSA-2048' },
    }
  } catch (error) {
    return { status: 'DOWN', detail: { latencyMs: elapsed(started), error: (error as Error).message } }
  }
}

/** The service's Ed25519 invoice-signing key (lib/platform/signing) is loaded: its JWKS kid and where it came from. */
async function signingKeys(): Promise<DependencyResult> {
  const started = performance.now()
  try {
    const key = await within(signingKey(), CHECK_TIMEOUT_MS)
    return {
      status: 'UP',
      detail: { latencyMs: elapsed(started), kid: key.jwk.kid, source: key.source, algorithm: 'Ed25519' },
    }
  } catch (error) {
    return { status: 'DOWN', detail: { latencyMs: elapsed(started), error: (error as Error).message } }
  }
}

/** The service's dependencies, checked in parallel. */
export const dependencyChecks: Record<string, () => Promise<DependencyResult>> = {
  dynamodb,
  signingKeys,
  qrAuthorityKey,
}

/**
 * Dependencies without which no request at all can be served (authentication itself reads DynamoDB):
 * one of these down makes the whole service DOWN. Any other dependency down makes it DEGRADED (the
 * endpoints that use it fail, the rest work).
 */
export const CRITICAL_DEPENDENCIES: readonly string[] = ['dynamodb']

export type OverallStatus = 'UP' | 'DEGRADED' | 'DOWN'

export function overallStatus(results: Record<string, DependencyResult>): OverallStatus {
  const down = Object.entries(results)
    .filter(([, r]) => r.status === 'DOWN')
    .map(([name]) => name)
  if (down.length === 0) return 'UP'
  if (
    down.length === Object.keys(results).length ||
    down.some((name) => CRITICAL_DEPENDENCIES.includes(name))
  )
    return 'DOWN'
  return 'DEGRADED'
}

export async function checkDependencies(): Promise<Record<string, DependencyResult>> {
  const names = Object.keys(dependencyChecks)
  const results = await Promise.all(names.map((name) => dependencyChecks[name]!()))
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]))
}

export function applicationDetail() {
  const { version, stage } = config()
  return { version, stage, node: process.version }
}
