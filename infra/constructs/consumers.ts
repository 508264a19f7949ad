import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib'
import type { RetentionDays } from 'aws-cdk-lib/aws-logs'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import type { Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import type { Queue } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import type { QueueName } from '#lib/platform/async/queue.ts'
import type { Access } from '#lib/platform/iam/access.ts'
import type { Consumer } from '#lib/service/consumers.ts'
import { accessOfConsumer } from '#lib/service/function-access.ts'
import type { ModeSecret } from '#lib/service/routes.ts'
import { constructId } from '../stacks/service.ts'
import { houseFunction } from './api-function.ts'
import { QueueTrigger, StreamTrigger, scheduleTrigger } from './consumer-triggers.ts'
import { grantAccess, grantQueue } from './grants.ts'

export interface ConsumersProps {
  /** The declarations to build (lib/service/consumers.ts): those of the stack this is in. */
  consumers: readonly Consumer[]
  table: ITableV2
  dataKey?: IKey
  secrets?: Partial<Record<ModeSecret, ISecret>>
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
  logRetention: RetentionDays
  /** The stage's SES identity (its settings' `ses`); without it a consumer that e-mails only logs (no SES grant). */
  ses?: { fromAddress: string; identity: string } | null
  /** The API functions of the stack by functionId, for the queue senders among them (their Access names the queue). */
  apiFunctions: ReadonlyMap<string, { function: IFunction; access?: Access }>
}

/**
 * Every asynchronous consumer of a stack, from its declaration (lib/service/consumers.ts), on AWS's
 * managed engines:
 * - the table's DynamoDB stream -> an event source mapping, filtered at the source so the function
 *   runs only for its records; partial batch failures, bisect on error, and after `retryAttempts`
 *   the failed batch's coordinates go to an SQS dead-letter queue (the records stay readable in the
 *   stream for 24 h);
 * - an SQS queue of its own (webhook attempts: a retry is a message sent with a delay, at most 15 min
 *   per hop, durable while the worker or DynamoDB is down), with a dead-letter queue after
 *   `maxReceiveCount` receives. Chosen over EventBridge Scheduler (one schedule per retry, minute
 *   granularity, a second service to grant and watch) and Step Functions (a state machine per
 *   delivery for what a delayed message does);
 * - EventBridge Scheduler, for a daily job, with an alarm on the figure it publishes.
 * Each function gets only what its declaration's Access says (lib/service/function-access.ts, as
 * grants.ts renders it), the Access every local run holds it to: table grants, SendMessage on the
 * queues it sends to, kms:Decrypt/Encrypt bound to the encryption-context records it handles, the
 * secrets it loads, SES from the stage's identity. A stream or queue consumer also gets an alarm on
 * failing invocations; the triggers (consumer-triggers.ts) add the dead-letter, lag and backlog
 * alarms. The stack's AlarmsNotify sends every alarm to the alarm topic.
 */
export class Consumers extends Construct {
  readonly functions = new Map<string, LambdaFunction>()
  readonly queues = new Map<QueueName, Queue>()

  constructor(scope: Construct, id: string, props: ConsumersProps) {
    super(scope, id)
    // Queue consumers first: the others may send to their queues.
    const ordered = [
      ...props.consumers.filter((c) => c.trigger.kind === 'queue'),
      ...props.consumers.filter((c) => c.trigger.kind !== 'queue'),
    ]
    for (const c of ordered) this.consumer(c, props)
    // The queues each consumer sends to, once every queue exists (a queue consumer may send to
    // another's queue: the live webhook consumer to the test one's).
    for (const c of props.consumers) {
      for (const queueName of accessOfConsumer(c).queues ?? []) {
        grantQueue(this.functions.get(c.functionId)!, queueName, this.queueFor(c.functionId, queueName))
      }
    }
    // API functions that send to a queue made here, which did not exist when they were built.
    for (const [functionId, api] of props.apiFunctions) {
      for (const queueName of api.access?.queues ?? []) {
        grantQueue(api.function as LambdaFunction, queueName, this.queueFor(functionId, queueName))
      }
    }
  }

  private queueFor(functionId: string, name: QueueName): Queue {
    const queue = this.queues.get(name)
    if (!queue) throw new Error(`${functionId} sends to ${name}, which no consumer of its stack reads`)
    return queue
  }

  private consumer(c: Consumer, props: ConsumersProps) {
    // Its resources' logical ids derive from this path (see constructId in lib/service/consumers.ts).
    const scope = c.constructId
      ? new Construct(Stack.of(this), c.constructId)
      : new Construct(this, constructId(c.functionId))
    const access = accessOfConsumer(c)
    // The stage's SES identity, to a consumer that e-mails: without one it only logs (no SES grant).
    const sendsFrom = access.email ? (props.ses ?? undefined) : undefined
    const fn = houseFunction(scope, {
      ...props,
      name: c.functionId,
      handler: c.handler,
      memorySize: c.memoryMB,
      timeout: Duration.seconds(c.timeoutSeconds),
      environment: sendsFrom ? { SES_FROM_ADDRESS: sendsFrom.fromAddress } : {},
      ...(c.takesXml ? { ublInChunk: true } : {}),
    }).function
    this.functions.set(c.functionId, fn)
    // Its role: the Access the local runs hold it to. The queues it sends to are granted once every
    // queue exists (the constructor).
    grantAccess(
      fn,
      c.functionId,
      { ...access, queues: [] },
      {
        table: props.table,
        dataKey: props.dataKey,
        secrets: props.secrets,
        ...(sendsFrom ? { emailIdentities: [...new Set([sendsFrom.fromAddress, sendsFrom.identity])] } : {}),
      },
    )
    const trigger = c.trigger
    if (trigger.kind !== 'schedule') {
      new Alarm(scope, 'Errors', {
        alarmDescription: `${c.functionId}: invocations failing (${trigger.kind === 'stream' ? 'the stream retries them' : 'the queue delivers them again'})`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      })
    }
    const made = { consumer: c.functionId, function: fn }
    if (trigger.kind === 'queue') {
      const { queue } = new QueueTrigger(scope, 'Queue', { ...made, trigger })
      this.queues.set(trigger.queue, queue)
      // Attempts are delayed up to 15 minutes on purpose; older than 30 means the worker is behind.
      new Alarm(scope, 'Backlog', {
        alarmDescription: `${c.functionId}: a message has waited over 30 minutes in ${trigger.queue}`,
        metric: queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 30 * 60,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      })
    }
    if (trigger.kind === 'stream')
      new StreamTrigger(scope, 'Stream', { ...made, trigger, table: props.table })
    if (trigger.kind === 'schedule') scheduleTrigger(scope, { ...made, trigger, ...props })
  }
}
