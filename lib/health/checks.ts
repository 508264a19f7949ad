import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { config } from '#lib/config.ts'
import { db, tableName } from '#lib/db/client.ts'
import { keys } from '#lib/db/keys.ts'

export type ComponentStatus = 'UP' | 'DOWN'

export interface DependencyResult {
  status: ComponentStatus
  /** Shown to ADMIN callers only. */
  detail: Record<string, unknown>
}

/** A health check must answer fast even when DynamoDB does not. */
const DYNAMODB_TIMEOUT_MS = 1500

/** A real round trip to the table: a consistent read of a probe key (which need not exist). */
async function dynamodb(): Promise<DependencyResult> {
  const started = performance.now()
  try {
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.healthProbe(), ConsistentRead: true }),
      {
        abortSignal: AbortSignal.timeout(DYNAMODB_TIMEOUT_MS),
      },
    )
    return {
      status: 'UP',
      detail: { latencyMs: Math.round(performance.now() - started), table: tableName() },
    }
  } catch (error) {
    return {
      status: 'DOWN',
      detail: { latencyMs: Math.round(performance.now() - started), error: (error as Error).name },
    }
  }
}

/** The service's dependencies, checked in parallel. Later services add theirs here. */
export const dependencyChecks: Record<string, () => Promise<DependencyResult>> = { dynamodb }

export function applicationDetail() {
  const { version, stage } = config()
  return { version, stage, node: process.version }
}
