import type { QueueName } from '#lib/platform/async/queue.ts'
import {
  BATCH_PREFIX,
  EVENT_PREFIX,
  OUTBOX_PREFIX,
  SEARCH_COUNTER_PREFIX,
  SEARCH_LIST_PREFIX,
  TEST_CLOCK_PREFIX,
} from '#lib/platform/db/keys.ts'
import { type EncryptionRecord, reads, type TableGrant, writes } from '#lib/platform/iam/access.ts'
import type { ServiceSecret } from '#lib/platform/http/route.ts'

/**
 * The asynchronous consumers, as lib/service/routes.ts is for endpoints: the one list the CDK stack builds
 * event source mappings, queues and dead-letter queues from (infra/constructs/consumers.ts) and the
 * local runner (scripts/local/workers.ts) polls DynamoDB Local's stream and runs in-process queues
 * from. Either way the same handler module gets the same event shape.
 *
 * - `stream`: the table's stream, filtered to newly inserted items whose pk starts with `prefix`
 *   (and whose sk is `sk`, when given). Failures are reported per record; the stream retries from
 *   the first failed one, and after `retryAttempts` the batch's coordinates go to the DLQ.
 * - `queue`: an SQS queue (`lib/platform/async/queue.ts`); a message that fails `maxReceiveCount` times goes
 *   to the queue's DLQ.
 */
interface ConsumerBase {
  functionId: string
  /** The module exporting `handler`, relative to the project root. */
  handler: string
  batchSize: number
  timeoutSeconds: number
  /**
   * What the function does to the table (the stack grants no more, lib/service/function-access.ts): read or
   * write every record, or just the grants listed.
   */
  tableAccess: 'read' | 'write' | readonly TableGrant[]
  /**
   * The data key's use (lib/platform/crypto/fields.ts), by the encryption context's `record`: the stack grants
   * kms:Decrypt / kms:Encrypt for exactly these records.
   */
  dataKey?: { decrypt?: EncryptionRecord[]; encrypt?: EncryptionRecord[] }
  /** Service keys the function loads (the signing key, for batches of signs). */
  secrets?: ServiceSecret[]
  /** Queues the function sends to. */
  sendsTo?: QueueName[]
  /** Sends e-mail through SES (where the stage has a sending identity). */
  sendsEmail?: boolean
  description: string
}

export interface StreamConsumer extends ConsumerBase {
  kind: 'stream'
  prefix: string
  sk?: string
  retryAttempts: number
}

export interface QueueConsumer extends ConsumerBase {
  kind: 'queue'
  queue: QueueName
  /** Longer than the function's timeout, so a message is not handed out twice while it runs. */
  visibilityTimeoutSeconds: number
  maxReceiveCount: number
  /**
   * The most concurrent invocations the queue's event source starts (Lambda's SQS maxConcurrency,
   * 2 to 1000): a storm of messages cannot take the account's concurrency from the API.
   */
  maxConcurrency?: number
}

export type Consumer = StreamConsumer | QueueConsumer

/** Outcome notifications and admin notices: built by a construct of its own (its SES identity). */
export const OUTBOX_SENDER: StreamConsumer = {
  kind: 'stream',
  functionId: 'outbox-sender',
  handler: 'functions/notifications/outbox-sender.ts',
  prefix: OUTBOX_PREFIX,
  batchSize: 25,
  retryAttempts: 5,
  timeoutSeconds: 30,
  // Reads the outbox item and the admin e-mail list; marks each outbox item SENT with a conditional
  // update, and writes nothing else.
  tableAccess: [reads(['NEMAIL', OUTBOX_PREFIX]), { actions: ['UpdateItem'], keys: [OUTBOX_PREFIX] }],
  sendsEmail: true,
  description: 'Outcome notifications and admin notices -> the admin e-mail list',
}

export const consumers: readonly Consumer[] = [
  OUTBOX_SENDER,

  {
    kind: 'stream',
    functionId: 'webhook-fan-out',
    handler: 'functions/webhooks/fan-out.ts',
    prefix: EVENT_PREFIX,
    batchSize: 50,
    // Each retry is cheap and idempotent; a day of them rides out a long DynamoDB or SQS outage.
    retryAttempts: 2000,
    timeoutSeconds: 60,
    // Reads a page of the event's business's subscriptions; writes one delivery record per
    // subscription of the page; queues the next page (lib/webhooks/delivery-worker.ts fanOut).
    tableAccess: [reads(['WEBHOOKS#', EVENT_PREFIX]), writes(['WHDELIVERY#'])],
    sendsTo: ['webhook-deliveries'],
    description:
      'Integration events -> one delivery per subscription of the first page, first attempts queued, the next page queued',
  },
  {
    kind: 'queue',
    functionId: 'webhook-deliver',
    handler: 'functions/webhooks/deliver.ts',
    queue: 'webhook-deliveries',
    batchSize: 10,
    // Ten attempts of 5 s at most, in parallel, plus their writes.
    timeoutSeconds: 30,
    visibilityTimeoutSeconds: 90,
    maxReceiveCount: 20,
    // At most 20 x 10 attempts in flight: the rest of the account's concurrency stays the API's.
    maxConcurrency: 20,
    // The delivery and its subscription's state; a failure notice for the admin list (OUTBOX#); the
    // destination host's concurrency slots (WHHOST#); further pages of a fan-out (WEBHOOKS#, WHDELIVERY#);
    // in test mode, the business's test clock (TESTCLOCK#, lib/platform/test-clock.ts).
    tableAccess: [
      writes(['WEBHOOKS#', 'WHDELIVERY#', 'WHHOST#', OUTBOX_PREFIX]),
      reads([EVENT_PREFIX, TEST_CLOCK_PREFIX]),
    ],
    dataKey: { decrypt: ['webhook-subscription'] },
    sendsTo: ['webhook-deliveries'],
    description:
      'One signed webhook attempt per message (at most 10 in flight per destination host), or one more page of a fan-out; retries queued with a delay',
  },
  {
    kind: 'stream',
    functionId: 'batch-worker',
    handler: 'functions/batches/worker.ts',
    prefix: BATCH_PREFIX,
    sk: 'BATCH',
    batchSize: 1,
    retryAttempts: 2000,
    timeoutSeconds: 300,
    // The batch's own items, and what the single validate and sign endpoints touch (lib/service/endpoints/invoice.ts).
    tableAccess: [
      writes([
        BATCH_PREFIX,
        'IRN#',
        EVENT_PREFIX,
        'AUDIT#',
        'SIGNING_KEYS',
        SEARCH_COUNTER_PREFIX,
        SEARCH_LIST_PREFIX,
      ]),
      reads(['BUSINESS#', 'TIN#', 'SERVICEID#', 'REF#', 'APIKEY#']),
    ],
    // As the single sign endpoint: the signing key, and invoice notes sealed.
    secrets: ['signing-key'],
    dataKey: { encrypt: ['invoice'] },
    description: 'A submitted batch -> each invoice validated or signed exactly once, then batch.completed',
  },
]

export const consumerOf = (functionId: string) => consumers.find((c) => c.functionId === functionId)

/**
 * The consumers built by constructs of their own rather than from the list above: the merchant history
 * indexer (infra/constructs/history-indexer.ts: its own stream filter, on transfers inserted or
 * reversed) and the daily reconciliation (infra/constructs/reconciliation.ts: a schedule, not a stream).
 */
export const HISTORY_INDEXER = {
  functionId: 'history-indexer',
  handler: 'functions/merchant-history/history-indexer.ts',
  // A batch may retry against other batches of the same merchant for up to 20 s (indexer.ts).
  timeoutSeconds: 60,
} as const
export const DAILY_RECONCILIATION = {
  functionId: 'reconcile-daily',
  handler: 'functions/finance/reconcile-daily.ts',
  // A whole-table scan: the most time Lambda gives.
  timeoutSeconds: 900,
} as const

/**
 * Every consumer function of a stage: what the stacks deploy besides the API's functions, and what
 * `npm start -- --bundles` runs from their bundles (scripts/local/bundles.ts).
 */
export const consumerFunctions: readonly Pick<Consumer, 'functionId' | 'handler' | 'timeoutSeconds'>[] = [
  ...consumers,
  HISTORY_INDEXER,
  DAILY_RECONCILIATION,
]
