import { type CfnElement, CfnOutput, Duration, Stack, TimeZone } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda'
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler'
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets'
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import type {
  QueueTrigger as QueueTriggerSpec,
  ScheduleTrigger as ScheduleTriggerSpec,
  StreamTrigger as StreamTriggerSpec,
} from '#lib/service/consumers.ts'
import { constructId } from '../stacks/service.ts'
import { acknowledge } from './nag.ts'

/**
 * How a consumer's function is fed, one builder per trigger kind of lib/service/consumers.ts, so none
 * can drop work silently: what still fails after a stream's or queue's retries lands in an SQS
 * dead-letter queue, the queue's depth and the consumer's lag page someone (the stack's alarm topic
 * is attached to every alarm by AlarmsNotify), and `npm run cli -- dlq redrive` puts it back
 * (docs/operations.md); a schedule's run publishes a figure whose absence pages. The construct ids
 * below are part of every resource's logical id: renaming one replaces deployed queues.
 */

/** Prefix of the stack outputs naming each dead-letter queue: the redrive CLI finds them by it. */
export const DEAD_LETTER_OUTPUT_PREFIX = 'DeadLetters'

export interface DeadLetterQueueProps {
  /** The consumer's functionId: in the alarm, the output and the CLI. */
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
    new CfnOutput(stack, `${DEAD_LETTER_OUTPUT_PREFIX}${constructId(props.consumer)}`, {
      description: `Dead-letter queue of ${props.consumer}`,
      value: this.queue.queueUrl,
    })
  }
}

export interface TriggerProps<T> {
  /** The consumer's functionId. */
  consumer: string
  function: IFunction
  trigger: T
}

/**
 * The table's stream into a function, filtered at the source to the records its declaration names,
 * with bisect on error, per-item failure reports, an on-failure SQS destination and alarms on that
 * queue and on the stream's iterator age. The destination receives the batch's shard and sequence
 * numbers (not the records); `dlq redrive` reads them back from the stream, which keeps them 24 hours.
 */
export class StreamTrigger extends Construct {
  readonly deadLetters: DeadLetterQueue
  readonly lagAlarm: Alarm

  constructor(scope: Construct, id: string, props: TriggerProps<StreamTriggerSpec> & { table: ITableV2 }) {
    super(scope, id)
    const t = props.trigger
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { consumer: props.consumer })
    props.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: t.batchSize,
        bisectBatchOnError: true,
        retryAttempts: t.retryAttempts,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetters.queue),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.or(...t.events),
            dynamodb: {
              Keys: {
                pk: { S: FilterRule.beginsWith(t.prefix) },
                ...(t.sk ? { sk: { S: FilterRule.isEqual(t.sk) } } : {}),
              },
              ...(t.newImage
                ? {
                    NewImage: Object.fromEntries(
                      Object.entries(t.newImage).map(([name, value]) => [
                        name,
                        { S: FilterRule.isEqual(value) },
                      ]),
                    ),
                  }
                : {}),
            },
          }),
        ],
      }),
    )
    const maxLag = Duration.seconds(t.maxLagSeconds)
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

/**
 * A queue of the function's own into it: failed messages (reported one by one) return to the queue
 * and go to the dead-letter queue after maxReceiveCount receives; SQS moves them back (`dlq redrive`).
 */
export class QueueTrigger extends Construct {
  readonly queue: Queue
  readonly deadLetters: DeadLetterQueue

  constructor(scope: Construct, id: string, props: TriggerProps<QueueTriggerSpec>) {
    super(scope, id)
    const t = props.trigger
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', { consumer: props.consumer })
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(t.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetters.queue, maxReceiveCount: t.maxReceiveCount },
    })
    props.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: t.batchSize,
        reportBatchItemFailures: true,
        ...(t.maxConcurrency ? { maxConcurrency: t.maxConcurrency } : {}),
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

/**
 * EventBridge Scheduler invoking the function once at each `cron` time (Lagos) or every `everyMinutes`,
 * without retries, and the alarm on the figure each run publishes: on 1 or more, and on a period
 * (a day unless the trigger says) without it. Made in `scope`
 * itself (the consumer's construct), beside its function.
 */
export function scheduleTrigger(
  scope: Construct,
  props: TriggerProps<ScheduleTriggerSpec> & { serviceName: string; stage: string },
): { schedule: Schedule; alarm: Alarm } {
  const t = props.trigger
  acknowledge(
    scope,
    'Serverless-LambdaDLQ',
    "Invoked by EventBridge Scheduler, without retries: a run that fails leaves the day without its figure, which the alarm treats as breaching; a dead-letter queue would hold nothing the alarm and the function's log do not show",
  )
  const schedulerRole = new Role(scope, 'SchedulerRole', {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
    description: `${props.serviceName} ${props.stage}: EventBridge Scheduler invokes ${props.consumer}`,
  })
  const functionLogicalId = Stack.of(scope).getLogicalId(props.function.node.defaultChild as CfnElement)
  acknowledge(
    schedulerRole,
    `AwsSolutions-IAM5[Resource::<${functionLogicalId}.Arn>:*]`,
    "LambdaInvoke's grant: invoke this one function, in any of its versions (`<arn>:*`)",
  )
  const schedule = new Schedule(scope, t.name, {
    description: `${props.serviceName} ${props.stage}: ${t.does}`,
    schedule: t.cron
      ? ScheduleExpression.cron({ ...t.cron, timeZone: TimeZone.AFRICA_LAGOS })
      : ScheduleExpression.rate(Duration.minutes(t.everyMinutes)),
    // One attempt: a second run while the first still works would only double its cost.
    target: new LambdaInvoke(props.function, { retryAttempts: 0, role: schedulerRole }),
  })
  const alarm = new Alarm(scope, t.alarm.name, {
    alarmDescription: t.alarm.description,
    metric: new Metric({
      namespace: t.alarm.namespace,
      metricName: t.alarm.metric,
      dimensionsMap: { service: props.serviceName },
      statistic: 'Maximum',
      period: Duration.minutes(t.alarm.periodMinutes ?? 24 * 60),
    }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.BREACHING,
  })
  return { schedule, alarm }
}
