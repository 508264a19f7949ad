import { RECONCILIATION_METRIC, RECONCILIATION_NAMESPACE } from '#lib/finance/reconcile-metric.ts'
import type { QueueName } from '#lib/platform/async/queue.ts'
import {
  BANK_REQUEST_PREFIX,
  BATCH_PREFIX,
  PARTY_PREFIX,
  POSTAL_ADDRESS_PREFIX,
  EVENT_PREFIX,
  OUTBOX_PREFIX,
  SEARCH_COUNTER_PREFIX,
  SEARCH_LIST_PREFIX,
  TEST_CLOCK_PREFIX,
  DEVICE_BY_ID_PREFIX,
  RECEIPT_PREFIX,
  RECEIPT_WATCH_PREFIX,
} from '#lib/platform/db/keys.ts'
import { GAPS_OVERDUE_METRIC } from '#lib/receipts/events-chain-watch.ts'
import { handlerOf } from '#lib/platform/http/endpoint.ts'
import type { StackName } from '#lib/platform/http/route.ts'
import { type Access, READ_EVERY_RECORD, reads, writes } from '#lib/platform/iam/access.ts'
import { OVERDUE_METRIC } from '#lib/webhooks/overdue-sweep.ts'
import { METRICS_NAMESPACE } from '#lib/platform/metrics.ts'

/**
 * The asynchronous consumers, declared as the endpoints are (lib/service/endpoints): one declaration
 * each, read by everything else. The stacks build each in its `stack` with its trigger, dead-letter
 * queue, alarms and the grants of its `access` (infra/constructs/consumers.ts); the local runner
 * feeds it from DynamoDB Local's stream, in-process queues or an invoke, under the same `access`
 * (scripts/local/workers.ts, scripts/local/iam.ts). Either way the same handler module,
 * functions/<domain>/<functionId>.ts, gets the same event shape.
 */

/**
 * The table's stream, filtered at the event source to the records the consumer handles (the local
 * drive applies the same filter): these events, of items whose pk starts with `prefix` (and whose sk
 * is `sk`, and whose new image has these string attributes, when given). Failures are reported per
 * record; a failing batch is bisected and retried from the first failed record, and after
 * `retryAttempts` its coordinates go to the dead-letter queue.
 */
export interface StreamTrigger {
  kind: 'stream'
  events: readonly ('INSERT' | 'MODIFY')[]
  prefix: string
  sk?: string
  newImage?: Readonly<Record<string, string>>
  batchSize: number
  retryAttempts: number
  /** How old the stream's oldest waiting record may grow before the lag alarm pages. */
  maxLagSeconds: number
}

/**
 * An SQS queue (lib/platform/async/queue.ts) of the consumer's own; a message that fails
 * `maxReceiveCount` times goes to the queue's dead-letter queue.
 */
export interface QueueTrigger {
  kind: 'queue'
  queue: QueueName
  batchSize: number
  /** Longer than the function's timeout, so a message is not handed out twice while it runs. */
  visibilityTimeoutSeconds: number
  maxReceiveCount: number
  /**
   * The most concurrent invocations the queue's event source starts (Lambda's SQS maxConcurrency,
   * 2 to 1000): a storm of messages cannot take the account's concurrency from the API.
   */
  maxConcurrency?: number
}

/**
 * EventBridge Scheduler, once per day at `cron` (Lagos time) or every `everyMinutes`, one attempt. A
 * scheduled run has no queue to leave failed work in: it publishes a figure instead, and `alarm` fires
 * when the figure is 1 or more, or missing for its period (a day by default: the run failed or did not
 * happen), since silence proves nothing. Locally a daily one runs when invoked (scripts/local/workers.ts
 * invoke); one run `everyMinutes` runs on the local workers' timer too (LOCAL_SCHEDULE_SECONDS
 * shortens it).
 */
export type ScheduleTrigger = {
  kind: 'schedule'
  /** The schedule's construct id (its logical id derives from it). */
  name: string
  /** What a run does, for the schedule's description. */
  does: string
  alarm: {
    /** The alarm's construct id. */
    name: string
    namespace: string
    metric: string
    description: string
    /** The alarm's period, in minutes: a day when absent. At least the schedule's interval. */
    periodMinutes?: number
  }
} & (
  | { cron: { minute: string; hour: string }; everyMinutes?: never }
  | { everyMinutes: number; cron?: never }
)

type Trigger = StreamTrigger | QueueTrigger | ScheduleTrigger

/** The stacks a consumer may deploy in: an area's (the edge holds the HTTP API only). */
type ConsumerStack = Exclude<StackName, 'edge'>

interface ConsumerDeclaration {
  /** The Lambda function's name within the service; its handler is functions/<domain>/<functionId>.ts. */
  functionId: string
  /** It reads UBL 2.1 XML (a batch's UBL items): the UBL in chunk ships beside its bundle (CONTRACT 22). */
  takesXml?: true
  /** The lib/ domain (and functions/ folder) it belongs to. */
  domain: string
  stack: ConsumerStack
  trigger: Trigger
  /**
   * What the function may do in AWS, in the endpoints' vocabulary (lib/platform/iam/access.ts): its
   * role's policy is generated from it, and every local run refuses what it does not allow.
   */
  access: Access
  timeoutSeconds: number
  memoryMB: number
  description: string
  /**
   * Where its resources sit in its stack when not under `Consumers/<FunctionId>`: the id of a
   * construct at the stack's root. The outbox sender, the history indexer and the reconciliation
   * had constructs of their own there before their declarations did; their resources' logical ids
   * derive from this path, and a changed logical id would replace a deployed queue (losing what it
   * holds) or fail on a function's fixed name.
   */
  constructId?: string
}

export interface Consumer extends ConsumerDeclaration {
  /** The module exporting `handler`, relative to the project root: functions/<domain>/<functionId>.ts. */
  readonly handler: string
}

export type StreamConsumer = Consumer & { trigger: StreamTrigger }
export type QueueConsumer = Consumer & { trigger: QueueTrigger }

const declare = (c: ConsumerDeclaration): Consumer => ({ ...c, handler: handlerOf(c) })

/** Where webhook work of either mode may be queued (lib/webhooks/delivery-worker.ts deliveryQueue). */
const DELIVERY_QUEUES: QueueName[] = ['webhook-deliveries', 'webhook-test-deliveries']

export const consumers: readonly Consumer[] = [
  declare({
    functionId: 'outbox-sender',
    domain: 'notifications',
    stack: 'notifications',
    trigger: {
      kind: 'stream',
      events: ['INSERT'],
      prefix: OUTBOX_PREFIX,
      batchSize: 25,
      retryAttempts: 5,
      maxLagSeconds: 60,
    },
    // Reads the outbox item and the admin e-mail list; marks each outbox item SENT with a conditional
    // update, and writes nothing else; sends from the stage's SES identity, where it has one.
    access: {
      table: [reads(['NEMAIL', OUTBOX_PREFIX]), { actions: ['UpdateItem'], keys: [OUTBOX_PREFIX] }],
      email: true,
    },
    timeoutSeconds: 30,
    // Sends e-mail in batches: less memory than an API function.
    memoryMB: 512,
    description: 'Outcome notifications and admin notices -> the admin e-mail list',
    constructId: 'OutboxSender',
  }),
  declare({
    functionId: 'webhook-fan-out',
    domain: 'webhooks',
    stack: 'events',
    trigger: {
      kind: 'stream',
      events: ['INSERT'],
      prefix: EVENT_PREFIX,
      batchSize: 50,
      // Each retry is cheap and idempotent; a day of them rides out a long DynamoDB or SQS outage.
      retryAttempts: 2000,
      maxLagSeconds: 300,
    },
    // Reads a page of the event's business's subscriptions; writes one delivery record per
    // subscription of the page; queues the next page (lib/webhooks/delivery-worker.ts fanOut), on
    // the queue of the event's mode.
    access: {
      table: [reads(['WEBHOOKS#', EVENT_PREFIX]), writes(['WHDELIVERY#'])],
      queues: DELIVERY_QUEUES,
    },
    timeoutSeconds: 60,
    memoryMB: 1024,
    description:
      'Integration events -> one delivery per subscription of the first page, first attempts queued, the next page queued',
  }),
  ...(['live', 'test'] as const).map((mode) =>
    declare({
      functionId: mode === 'live' ? 'webhook-deliver' : 'webhook-deliver-test',
      domain: 'webhooks',
      stack: 'events',
      trigger: {
        kind: 'queue',
        queue: mode === 'live' ? 'webhook-deliveries' : 'webhook-test-deliveries',
        batchSize: 10,
        visibilityTimeoutSeconds: 90,
        maxReceiveCount: 20,
        // Live: at most 20 x 10 attempts in flight, the rest of the account's concurrency stays the
        // API's. Test mode has a queue and a smaller share of its own (CONTRACT 18): a sandbox burst
        // waits in its own queue and never in front of a live delivery.
        maxConcurrency: mode === 'live' ? 20 : 5,
      },
      // The delivery and its subscription's state; a failure notice for the admin list (OUTBOX#); the
      // destination host's concurrency slots (WHHOST#, each mode its own); further pages of a fan-out
      // (WEBHOOKS#, WHDELIVERY#); in test mode, the business's test clock (TESTCLOCK#,
      // lib/platform/test-clock.ts). Its retries go to its own queue; the live consumer may also send
      // to the test queue, for a test message queued on the live one before the queues were split.
      // A release hands its host slot on (lib/webhooks/host-slots.ts): the line's next entry may be a
      // recovery's next page, queued on webhook-recoveries.
      access: {
        table: [
          writes(['WEBHOOKS#', 'WHDELIVERY#', 'WHHOST#', OUTBOX_PREFIX]),
          reads([EVENT_PREFIX, TEST_CLOCK_PREFIX]),
        ],
        decrypt: ['webhook-subscription'],
        queues:
          mode === 'live'
            ? [...DELIVERY_QUEUES, 'webhook-recoveries']
            : ['webhook-test-deliveries', 'webhook-recoveries'],
      },
      // Ten attempts of 5 s at most, in parallel, plus their writes.
      timeoutSeconds: 30,
      memoryMB: 1024,
      description:
        mode === 'live'
          ? 'One signed webhook attempt per message (at most 10 in flight per destination host), or one more page of a fan-out; retries queued with a delay'
          : 'Test mode (sandbox): one signed webhook attempt per message, or one more page of a fan-out, on a queue and concurrency share of their own',
    }),
  ),
  declare({
    functionId: 'webhook-overdue-sweep',
    domain: 'webhooks',
    stack: 'events',
    // Every 5 minutes: a delivery whose message was lost (lib/webhooks/overdue-sweep.ts) waits at most
    // its bound (5 minutes) and one interval more. One attempt: the next run is 5 minutes away.
    trigger: {
      kind: 'schedule',
      name: 'OverdueSweep',
      does: 'queue again every PENDING webhook delivery overdue past its bound',
      everyMinutes: 5,
      alarm: {
        name: 'Overdue',
        namespace: METRICS_NAMESPACE,
        metric: OVERDUE_METRIC,
        description:
          'The overdue sweep found webhook deliveries whose message was lost (it queued them again; see the webhook-overdue-sweep log), or did not report for 15 minutes',
        periodMinutes: 15,
      },
    },
    // Reads the PENDING deliveries by due time (gsi2) and queues their attempts; writes nothing.
    access: {
      table: [{ actions: ['Query'], keys: ['WHDELIVERY#'], indexes: ['gsi2'] }],
      queues: DELIVERY_QUEUES,
    },
    timeoutSeconds: 60,
    memoryMB: 512,
    description: 'Every 5 minutes: each PENDING webhook delivery overdue past the bound queued again',
  }),
  declare({
    functionId: 'webhook-recover',
    domain: 'webhooks',
    stack: 'events',
    trigger: {
      kind: 'queue',
      queue: 'webhook-recoveries',
      // One page of one task per invocation: a task's pages follow each other, tasks run side by side.
      batchSize: 1,
      visibilityTimeoutSeconds: 120,
      maxReceiveCount: 20,
      maxConcurrency: 5,
    },
    // The task and the subscription's recovery slot (WEBHOOKS#); a page of the business's events
    // (gsi1, lib/events/queries.ts); the deliveries it makes or restarts (WHDELIVERY#), and its PENDING
    // ones (gsi1: the backlog it waits on); their first attempts and its own next page into the
    // destination host's waiting line and its slots read (WHHOST#), and the line moved to the delivery
    // queue while slots are free; a watch to its own queue (lib/webhooks/recovery.ts).
    access: {
      table: [
        writes(['WEBHOOKS#', 'WHDELIVERY#', 'WHHOST#']),
        // A page's entries go into the line in batches of 25 (lib/webhooks/host-slots.ts waitForSlots).
        { actions: ['BatchWriteItem'], keys: ['WHHOST#'] },
        reads([EVENT_PREFIX, 'EVENTS#', 'WHDELIVERY#'], ['gsi1']),
      ],
      queues: [...DELIVERY_QUEUES, 'webhook-recoveries'],
    },
    // A page of 100 events: 100 deliveries made or read, and their messages.
    timeoutSeconds: 60,
    memoryMB: 1024,
    description:
      'A webhook recovery task -> one page of its window: missed events redelivered with their original ids, the next page queued',
  }),
  declare({
    functionId: 'batch-dispatch',
    domain: 'batches',
    stack: 'events',
    // Only hands each new batch to the queue below: a shard's records wait on each other (a failing
    // one holds every later one of its shard), so no batch's work is done here, where one business's
    // poison batch would hold another's (CONTRACT 18). Its one failure is SQS being away.
    trigger: {
      kind: 'stream',
      events: ['INSERT'],
      prefix: BATCH_PREFIX,
      sk: 'BATCH',
      batchSize: 25,
      // Each retry is one SendMessage; a day of them rides out a long SQS outage.
      retryAttempts: 2000,
      maxLagSeconds: 300,
    },
    // Reads nothing (the header is the stream record); sends the batch id to batch-jobs.
    access: { queues: ['batch-jobs'] },
    timeoutSeconds: 30,
    memoryMB: 256,
    description: 'A submitted batch -> its job queued for the batch worker',
  }),
  declare({
    functionId: 'batch-worker',
    takesXml: true,
    domain: 'batches',
    stack: 'events',
    // One batch per message, side by side: a batch that fails is delivered again after the visibility
    // timeout without holding any other. Its items' attempts are counted on the items
    // (lib/batches/worker.ts), so a poison item fails within its bound, well before maxReceiveCount.
    trigger: {
      kind: 'queue',
      queue: 'batch-jobs',
      batchSize: 1,
      visibilityTimeoutSeconds: 360,
      // Receives a DynamoDB outage may use up (an item attempt is counted only once its item is read).
      maxReceiveCount: 20,
      maxConcurrency: 10,
    },
    // The batch's own items, and what the single validate and sign endpoints touch
    // (lib/service/endpoints/invoice.ts): the signing key, and invoice notes sealed.
    access: {
      table: [
        writes([
          BATCH_PREFIX,
          'IRN#',
          EVENT_PREFIX,
          'AUDIT#',
          'SIGNING_KEYS',
          SEARCH_COUNTER_PREFIX,
          SEARCH_LIST_PREFIX,
        ]),
        // Parties named by id and addresses by postal_address_id are read (lib/parties/resolve.ts).
        reads(['BUSINESS#', 'TIN#', 'SERVICEID#', 'REF#', 'APIKEY#', PARTY_PREFIX, POSTAL_ADDRESS_PREFIX]),
      ],
      encrypt: ['invoice'],
      secrets: ['signing-key'],
    },
    timeoutSeconds: 300,
    memoryMB: 1024,
    description: 'A queued batch -> each invoice validated or signed exactly once, then batch.completed',
  }),
  declare({
    functionId: 'history-indexer',
    domain: 'merchant-history',
    stack: 'payments',
    // Area B transfer records, inserted or modified by a reversal. A shard's records arrive in order,
    // so a transfer's insert comes before its reversal; the indexer is idempotent and its head update
    // conditional, so redeliveries and concurrent batches of one merchant from several shards are safe.
    trigger: {
      kind: 'stream',
      events: ['INSERT', 'MODIFY'],
      prefix: BANK_REQUEST_PREFIX,
      newImage: { kind: 'TRANSFER' },
      batchSize: 100,
      retryAttempts: 10,
      // CONTRACT 12: the history trails the ledger by seconds at most.
      maxLagSeconds: 5,
    },
    // Reads heads, pointers and transfers; writes only the history (MHIST#) and the provider-reference
    // pointers (PROVREF#), through TransactWriteItems (authorised item by item).
    access: {
      table: [
        READ_EVERY_RECORD,
        { actions: ['PutItem', 'UpdateItem', 'ConditionCheckItem'], keys: ['MHIST#', 'PROVREF#'] },
      ],
    },
    // A batch may retry against other batches of the same merchant for up to 20 s (indexer.ts).
    timeoutSeconds: 60,
    memoryMB: 512,
    description: "Transfers inserted or reversed -> their merchants' histories",
    constructId: 'HistoryIndexer',
  }),
  declare({
    functionId: 'reconcile-daily',
    domain: 'finance',
    stack: 'payments',
    // 02:00 Lagos time, when the day before is closed. One attempt: a second run while the first
    // still scans would only double the read cost.
    trigger: {
      kind: 'schedule',
      name: 'Daily',
      does: 'reconcile the ledger, histories and daily totals',
      cron: { minute: '0', hour: '2' },
      alarm: {
        name: 'Differences',
        namespace: RECONCILIATION_NAMESPACE,
        metric: RECONCILIATION_METRIC,
        description:
          'Reconciliation found differences between balances, transfers, histories or daily totals (see the reconcile-daily log), or did not report today',
      },
    },
    // reconcile() only scans the table (no index, no other action): read-only by construction.
    access: { table: [{ actions: ['Scan'] }] },
    // A whole-table scan: the most memory (and so CPU and network) and time Lambda gives.
    timeoutSeconds: 900,
    memoryMB: 3008,
    description: 'Every day: the ledger, the histories and the daily totals reconciled (CONTRACT section 12)',
    constructId: 'Reconciliation',
  }),
  declare({
    functionId: 'receipt-events',
    domain: 'receipts',
    // Beside the receipts' endpoints' neighbours: the events stack is at its resource budget.
    stack: 'exchange',
    // New receipt items (REPORTED, REJECTED and FORK; their entity is RECEIPT): the report replies
    // without writing their events, and this writes receipt.late and chain.fork after it.
    trigger: {
      kind: 'stream',
      events: ['INSERT'],
      prefix: RECEIPT_PREFIX,
      newImage: { entity: 'RECEIPT' },
      batchSize: 100,
      retryAttempts: 2000,
      maxLagSeconds: 300,
    },
    // Puts each event once (EVENT#, conditional), and the device on the chain watch's list (RWATCH#).
    access: { table: [writes([EVENT_PREFIX, RECEIPT_WATCH_PREFIX])] },
    timeoutSeconds: 60,
    memoryMB: 512,
    description:
      'New receipts -> receipt.late and chain.fork events, once each; the device on the chain watch',
  }),
  declare({
    functionId: 'receipt-chain-watch',
    domain: 'receipts',
    // Beside the receipts' endpoints' neighbours: the events stack is at its resource budget.
    stack: 'exchange',
    // Every 15 minutes: a gap or a silence is found at most 15 minutes after its deadline.
    trigger: {
      kind: 'schedule',
      name: 'ChainWatch',
      does: 'write chain.gap_overdue and device.silent for every watched receipt device past its deadline',
      everyMinutes: 15,
      alarm: {
        name: 'ReceiptGapsOverdue',
        namespace: METRICS_NAMESPACE,
        metric: GAPS_OVERDUE_METRIC,
        description:
          "A business's receipt chain has a gap overdue (receipts never reported 24 h after the next one was issued; see the receipt-chain-watch log), or the watch did not report for 30 minutes",
        periodMinutes: 30,
      },
    },
    // The watch list, each device's chain (RCPT#) and by-id status (DEVICEID#), the test clocks; puts events.
    access: {
      table: [
        reads([RECEIPT_WATCH_PREFIX, RECEIPT_PREFIX, DEVICE_BY_ID_PREFIX, TEST_CLOCK_PREFIX]),
        writes([EVENT_PREFIX]),
      ],
    },
    timeoutSeconds: 300,
    memoryMB: 512,
    description:
      'Every 15 minutes: chain.gap_overdue and device.silent for the receipt devices past their deadlines',
  }),
]
