import { Duration, type RemovalPolicy } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, type IAlarmAction, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda'
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import { BANK_REQUEST_PREFIX } from '#lib/db/keys.ts'
import { houseFunction } from './api-function.ts'

export interface HistoryIndexerProps {
  table: ITableV2
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
  /** Where the alarms notify, when the stack has somewhere. */
  alarmAction?: IAlarmAction
}

/** CONTRACT 12: the history trails the ledger by seconds at most. */
export const HISTORY_LAG_ALARM_MS = 5_000

/**
 * Records the ledger's transfers in the merchants' histories (functions/merchant/history-indexer.ts),
 * off the transfer's critical path: fed by the table's stream, filtered at the event source to Area B
 * transfer records. A shard's records arrive in order; records of one item (a transfer and its later
 * reversal) stay in order whatever the parallelization factor. The indexer is idempotent and its head
 * update conditional, so redeliveries and concurrent batches for one merchant are safe.
 *
 * A batch that keeps failing is split (bisect) to isolate the record, retried, and then sent to the
 * dead-letter queue (its stream coordinates: replay them with the same handler). Alarms: the stream's
 * iterator age (the history's lag) over HISTORY_LAG_ALARM_MS, any function error, any dead letter.
 */
export class HistoryIndexer extends Construct {
  readonly function: NodejsFunction
  readonly deadLetters: Queue

  constructor(scope: Construct, id: string, props: HistoryIndexerProps) {
    super(scope, id)
    this.function = houseFunction(this, {
      ...props,
      name: 'history-indexer',
      handler: 'functions/merchant/history-indexer.ts',
      memorySize: 512,
      // A batch may retry against other batches of the same merchant for up to 20 s (indexer.ts).
      timeout: Duration.seconds(60),
      environment: {},
    }).function
    // BatchGetItem of heads, pointers and items; TransactWriteItems of puts and updates.
    props.table.grantReadWriteData(this.function)
    this.deadLetters = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    })
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        // Prompt: a batch goes as soon as records are there (the lag target is seconds).
        maxBatchingWindow: Duration.seconds(0),
        parallelizationFactor: 2,
        bisectBatchOnError: true,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(6),
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetters),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: {
              Keys: { pk: { S: FilterRule.beginsWith(BANK_REQUEST_PREFIX) } },
              NewImage: { kind: { S: FilterRule.isEqual('TRANSFER') } },
            },
          }),
        ],
      }),
    )
    const alarms = [
      new Alarm(this, 'Lag', {
        alarmDescription: `history-indexer: the merchant history trails the ledger by more than ${HISTORY_LAG_ALARM_MS / 1000} s (stream iterator age)`,
        metric: this.function.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: HISTORY_LAG_ALARM_MS,
        evaluationPeriods: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(this, 'Errors', {
        alarmDescription:
          'history-indexer: batches failing (the stream retries them, then dead-letters them)',
        metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(this, 'DeadLettered', {
        alarmDescription:
          'history-indexer: stream records dead-lettered: a history is incomplete until they are replayed',
        metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(5),
          statistic: 'Maximum',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    ]
    if (props.alarmAction) for (const alarm of alarms) alarm.addAlarmAction(props.alarmAction)
  }
}
