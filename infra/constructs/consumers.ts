import { Duration, type RemovalPolicy } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import { FilterCriteria, FilterRule, type IFunction } from 'aws-cdk-lib/aws-lambda'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import type { Queue } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import type { QueueName } from '#lib/platform/async/queue.ts'
import { type Consumer, consumers } from '#lib/service/consumers.ts'
import type { Access } from '#lib/platform/iam/access.ts'
import { accessOfConsumer } from '#lib/service/function-access.ts'
import type { ServiceSecret } from '#lib/service/routes.ts'
import { houseFunction } from './api-function.ts'
import { QueueConsumer, StreamConsumer } from './async-consumer.ts'
import { grantAccess, grantQueue } from './grants.ts'

export interface ConsumersProps {
  table: ITableV2
  dataKey?: IKey
  secrets?: Partial<Record<ServiceSecret, ISecret>>
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
  /** The API's functions by functionId, for the queue senders among them (their Access names the queue). */
  apiFunctions: Map<string, { function: IFunction; access?: Access }>
  /** Consumers built elsewhere (the outbox sender has its own construct). */
  skip?: string[]
}

/**
 * The asynchronous side from lib/service/consumers.ts, on AWS's managed engines:
 * - the table's DynamoDB stream -> an event source mapping per stream consumer, filtered at the
 *   source (INSERT of its key prefix) so the function runs only for its items; partial batch
 *   failures, bisect on error, and after `retryAttempts` the failed batch's coordinates go to an SQS
 *   dead-letter queue (the records stay readable in the stream for 24 h);
 * - SQS for webhook attempts: a retry is a message sent with a delay (at most 15 min per hop; longer
 *   waits hop again), durable while the worker or DynamoDB is down, with a DLQ after
 *   `maxReceiveCount` receives. Chosen over EventBridge Scheduler (one schedule per retry, minute
 *   granularity, a second service to grant and watch) and Step Functions (a state machine per
 *   delivery for what a delayed message does).
 * Each function gets only what it uses (its Access, lib/service/function-access.ts, as grants.ts renders it):
 * its table grants, SendMessage on the queues it sends to, kms:Decrypt/Encrypt bound to the
 * encryption-context records it handles, the secrets it loads. The DLQs, bisection, partial failures and the DLQ-depth and lag alarms come from the house
 * StreamConsumer and QueueConsumer (infra/constructs/async-consumer.ts); added here: error and
 * backlog alarms. The stack's AlarmsNotify sends every alarm to the alarm topic.
 */
export class Consumers extends Construct {
  readonly functions = new Map<string, NodejsFunction>()
  readonly queues = new Map<QueueName, Queue>()

  constructor(scope: Construct, id: string, props: ConsumersProps) {
    super(scope, id)
    const selected = consumers.filter((c) => !props.skip?.includes(c.functionId))
    // Queue consumers first: the stream consumers send to their queues.
    const ordered = [
      ...selected.filter((c) => c.kind === 'queue'),
      ...selected.filter((c) => c.kind === 'stream'),
    ]
    for (const c of ordered) this.consumer(c, props)
    // API functions that send to a queue made here, which did not exist when they were built.
    for (const [functionId, api] of props.apiFunctions) {
      for (const queueName of api.access?.queues ?? []) {
        const queue = this.queues.get(queueName)
        if (!queue) throw new Error(`${functionId} sends to ${queueName}, which no consumer reads`)
        grantQueue(api.function as NodejsFunction, queueName, queue)
      }
    }
  }

  private consumer(c: Consumer, props: ConsumersProps) {
    const scope = new Construct(this, pascal(c.functionId))
    const fn = houseFunction(scope, {
      ...props,
      name: c.functionId,
      handler: c.handler,
      memorySize: 1024,
      timeout: Duration.seconds(c.timeoutSeconds),
    }).function
    this.functions.set(c.functionId, fn)
    // Its role: the Access the local runs hold it to (lib/service/function-access.ts). Its own queue, made
    // below, is granted then.
    const access = accessOfConsumer(c)
    grantAccess(fn, c.functionId, { ...access, queues: [] }, props)
    new Alarm(scope, 'Errors', {
      alarmDescription: `${c.functionId}: invocations failing (${c.kind === 'stream' ? 'the stream retries them' : 'the queue delivers them again'})`,
      metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })

    if (c.kind === 'queue') {
      // Dead-letter queue, redrive policy, partial failures: the house QueueConsumer.
      const consumer = new QueueConsumer(scope, 'Queue', {
        consumer: c.functionId,
        function: fn,
        batchSize: c.batchSize,
        maxReceiveCount: c.maxReceiveCount,
        visibilityTimeout: Duration.seconds(c.visibilityTimeoutSeconds),
        ...(c.maxConcurrency ? { maxConcurrency: c.maxConcurrency } : {}),
      })
      this.queues.set(c.queue, consumer.queue)
      // Attempts are delayed up to 15 minutes on purpose; older than 30 means the worker is behind.
      new Alarm(scope, 'Backlog', {
        alarmDescription: `${c.functionId}: a message has waited over 30 minutes in ${c.queue}`,
        metric: consumer.queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 30 * 60,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      })
    }
    for (const queueName of access.queues ?? []) {
      const queue = this.queues.get(queueName)
      if (!queue) throw new Error(`${c.functionId} sends to ${queueName}, which no consumer reads`)
      grantQueue(fn, queueName, queue)
    }
    if (c.kind === 'stream') {
      // Bisect, per-item failures, on-failure DLQ, lag alarm: the house StreamConsumer.
      new StreamConsumer(scope, 'Stream', {
        consumer: c.functionId,
        function: fn,
        table: props.table,
        batchSize: c.batchSize,
        retryAttempts: c.retryAttempts,
        maxLag: Duration.minutes(5),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: {
              Keys: {
                pk: { S: FilterRule.beginsWith(c.prefix) },
                ...(c.sk ? { sk: { S: FilterRule.isEqual(c.sk) } } : {}),
              },
            },
          }),
        ],
      })
    }
  }
}

/** `webhook-fan-out` -> `WebhookFanOut`. */
function pascal(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}
