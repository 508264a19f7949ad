import { CfnOutput, Duration, Stack } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda'
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import { acknowledge } from './nag.ts'

/**
 * Every asynchronous consumer (a stream or queue feeding a function) is built with one of the two
 * constructs below, so none can drop work silently: what still fails after its retries lands in an
 * SQS dead-letter queue, the queue's depth and the consumer's lag page someone (the stack's alarm
 * topic is attached to every alarm by AlarmsNotify), and `npm run cli -- dlq redrive` puts it back
 * (docs/operations.md). Use StreamConsumer for a DynamoDB stream, QueueConsumer for an SQS queue.
 */

/** Prefix of the stack outputs naming each dead-letter queue: the redrive CLI finds them by it. */
export const DEAD_LETTER_OUTPUT_PREFIX = 'DeadLetters'

export interface DeadLetterQueueProps {
  /** The consumer's name (e.g. `outbox-sender`): in the alarm, the output and the CLI. */
  consumer: string
}

/** An encrypted SQS queue holding what a consumer gave up on, with an alarm on its depth. */
export class DeadLetterQueue extends Construct {
  readonly queue: Queue
  readonly depthAlarm: Alarm

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id)
    this.queue = new Queue(this, 'Queue', {
      // The longest SQS allows: time to find the bug and redrive.
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    })
    const reason = 'This queue is itself a dead-letter queue: nothing follows it'
    acknowledge(this.queue, 'AwsSolutions-SQS3', reason)
    acknowledge(this.queue, 'Serverless-SQSRedrivePolicy', reason)
    this.depthAlarm = new Alarm(this, 'DepthAlarm', {
      alarmDescription: `${props.consumer}: work failed after its retries and waits in the dead-letter queue (docs/operations.md: redrive)`,
      metric: this.queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
    // On the top-level stack, where `dlq redrive` reads outputs, also for a consumer in a nested stack.
    let stack = Stack.of(this)
    while (stack.nestedStackParent) stack = stack.nestedStackParent
    new CfnOutput(stack, `${DEAD_LETTER_OUTPUT_PREFIX}${outputIdOf(props.consumer)}`, {
      description: `Dead-letter queue of ${props.consumer}`,
      value: this.queue.queueUrl,
    })
  }
}

export interface StreamConsumerProps {
  /** The consumer's name, e.g. `outbox-sender`. */
  consumer: string
  function: IFunction
  table: ITableV2
  /** Event filters (FilterCriteria.filter), so the function is invoked only for what it handles. */
  filters?: Array<{ [key: string]: unknown }>
  batchSize?: number
  /** Retries of a failing batch (halved each time by bisection) before it goes to the queue. */
  retryAttempts?: number
  /** Stream lag (iterator age) that pages: work is waiting this long. One minute unless given. */
  maxLag?: Duration
}

/**
 * A function fed by the table's stream, with bisect on error, per-item failure reports, an on-failure
 * SQS destination and alarms on that queue and on the stream's iterator age. The destination receives
 * the batch's shard and sequence numbers (not the records); `dlq redrive` reads them back from the
 * stream, which keeps them 24 hours.
 */
export class StreamConsumer extends Construct {
  readonly deadLetters: DeadLetterQueue
  readonly lagAlarm: Alarm

  constructor(scope: Construct, id: string, props: StreamConsumerProps) {
    super(scope, id)
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { consumer: props.consumer })
    props.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: props.batchSize ?? 25,
        bisectBatchOnError: true,
        retryAttempts: props.retryAttempts ?? 5,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetters.queue),
        ...(props.filters ? { filters: props.filters } : {}),
      }),
    )
    const maxLag = props.maxLag ?? Duration.minutes(1)
    this.lagAlarm = new Alarm(this, 'LagAlarm', {
      alarmDescription: `${props.consumer}: the stream's oldest record waits more than ${maxLag.toHumanString()} (consumer failing or throttled)`,
      metric: props.function.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: maxLag.toMilliseconds(),
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
  }
}

export interface QueueConsumerProps {
  consumer: string
  function: IFunction
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount?: number
  batchSize?: number
  /** At least six times the function's timeout (AWS's advice for Lambda consumers). */
  visibilityTimeout?: Duration
  /** The most concurrent invocations the event source starts (2 to 1000; unlimited when absent). */
  maxConcurrency?: number
}

/**
 * A function fed by its own SQS queue: failed messages (reported one by one) return to the queue and
 * go to the dead-letter queue after maxReceiveCount receives; SQS moves them back (`dlq redrive`).
 */
export class QueueConsumer extends Construct {
  readonly queue: Queue
  readonly deadLetters: DeadLetterQueue

  constructor(scope: Construct, id: string, props: QueueConsumerProps) {
    super(scope, id)
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { consumer: props.consumer })
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout ?? Duration.minutes(3),
      deadLetterQueue: { queue: this.deadLetters.queue, maxReceiveCount: props.maxReceiveCount ?? 5 },
    })
    props.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: props.batchSize ?? 10,
        reportBatchItemFailures: true,
        ...(props.maxConcurrency ? { maxConcurrency: props.maxConcurrency } : {}),
      }),
    )
    // On the function: the mapping is created as its child.
    acknowledge(
      props.function,
      'Serverless-LambdaEventSourceMappingDestination',
      "An SQS event source has no on-failure destination: a message failing maxReceiveCount times goes to the queue's own redrive dead-letter queue (above)",
    )
  }
}

/** `outbox-sender` -> `OutboxSender`, for output ids. */
function outputIdOf(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}
