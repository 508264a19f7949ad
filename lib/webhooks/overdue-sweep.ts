import { queryUpTo } from '#lib/platform/db/query.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { LISTED } from '#lib/platform/db/table.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { inMode, type Mode } from '#lib/platform/mode.ts'
import { DUE_STRIPES, type Delivery } from './delivery-records.ts'
import { attemptMessage, queueAttempt } from './delivery-worker.ts'

/**
 * The overdue sweep (CONTRACT sections 11 and 19, issue 33): every PENDING delivery whose next
 * attempt was due more than `boundMs` ago has lost its message (a worker killed holding a delayed
 * retry, a message gone to the dead-letter queue, a queueing that failed after its attempt was
 * recorded), and gets it queued again, for the attempt its record is at. Run on a schedule
 * (lib/service/consumers.ts, `webhook-overdue-sweep`): EventBridge Scheduler in AWS, the local
 * workers' timer locally (scripts/local/workers.ts), the same module either way.
 *
 * A message it queues beside one still on its way is harmless: the attempt count and the claim let
 * one of them run (lib/webhooks/delivery-worker.ts), and one not yet due waits. Bounded per run:
 * SWEEP_PAGE of the oldest overdue deliveries per index stripe and mode; the next run takes the rest.
 */
export const SWEEP_PAGE = 250

/** The figure each run publishes (lib/platform/metrics.ts), which the sweep's alarm watches: deliveries requeued. */
export const OVERDUE_METRIC = 'WebhookDeliveriesOverdue'

/** Overdue by more than this (WEBHOOK_OVERDUE_SECONDS, default 5 minutes) means lost. */
export const overdueBoundMs = (env: NodeJS.ProcessEnv = process.env) =>
  Number(env.WEBHOOK_OVERDUE_SECONDS ?? 300) * 1000

export interface SweepReport {
  /** Deliveries found overdue past the bound, and so queued again. */
  requeued: number
  /** The oldest of them: how long past its due time (ms), 0 when none. */
  oldestOverdueMs: number
}

async function sweepMode(mode: Mode, cutoff: string, nowMs: number): Promise<SweepReport> {
  return inMode(mode, async () => {
    const stripes = await Promise.all(
      Array.from({ length: DUE_STRIPES }, (_, stripe) =>
        queryUpTo(
          {
            IndexName: 'gsi2',
            KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :cutoff',
            ExpressionAttributeValues: { ':pk': keys.webhookDeliveryDuePartition(stripe), ':cutoff': cutoff },
          },
          SWEEP_PAGE,
        ),
      ),
    )
    const listed = await withAttributes<Record<string, unknown>>('gsi2', LISTED.deliveryDue, stripes.flat())
    const overdue = listed.map((item) => recordOf<Delivery>(item)).filter((d) => d.status === 'PENDING')
    await Promise.all(overdue.map((d) => queueAttempt(attemptMessage(d, d.attempts))))
    const oldest = overdue.reduce((min, d) => Math.min(min, Date.parse(d.nextAttemptAt)), nowMs)
    return { requeued: overdue.length, oldestOverdueMs: nowMs - oldest }
  })
}

/** One run of the sweep over both modes' deliveries. */
export async function sweepOverdueDeliveries(
  nowMs = Date.now(),
  boundMs = overdueBoundMs(),
): Promise<SweepReport> {
  const cutoff = new Date(nowMs - boundMs).toISOString()
  const [live, test] = await Promise.all([sweepMode('live', cutoff, nowMs), sweepMode('test', cutoff, nowMs)])
  return {
    requeued: live.requeued + test.requeued,
    oldestOverdueMs: Math.max(live.oldestOverdueMs, test.oldestOverdueMs),
  }
}
