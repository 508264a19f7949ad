import { Duration, type RemovalPolicy } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import { Construct } from 'constructs'
import { HISTORY_INDEXER } from '#lib/service/consumers.ts'
import { BANK_REQUEST_PREFIX } from '#lib/platform/db/keys.ts'
import { houseFunction } from './api-function.ts'
import { StreamConsumer } from './async-consumer.ts'
import { HISTORY_INDEXER_ACCESS } from '#lib/service/function-access.ts'
import { grantAccess } from './grants.ts'

export interface HistoryIndexerProps {
  table: ITableV2
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
}

/** CONTRACT 12: the history trails the ledger by seconds at most; past this the lag alarm pages. */
export const HISTORY_LAG_ALARM = Duration.seconds(5)

/**
 * Records the ledger's transfers in the merchants' histories (functions/merchant-history/history-indexer.ts),
 * off the transfer's critical path: fed by the table's stream, filtered at the event source to Area B
 * transfer records (inserted, or modified by a reversal). A shard's records arrive in order, so a
 * transfer's insert comes before its reversal; the indexer is idempotent and its head update
 * conditional, so redeliveries and concurrent batches of one merchant from several shards are safe.
 * Bisect, per-item failures, the dead-letter queue and the lag alarm: StreamConsumer.
 */
export class HistoryIndexer extends Construct {
  readonly function: NodejsFunction
  readonly consumer: StreamConsumer

  constructor(scope: Construct, id: string, props: HistoryIndexerProps) {
    super(scope, id)
    this.function = houseFunction(this, {
      ...props,
      name: HISTORY_INDEXER.functionId,
      handler: HISTORY_INDEXER.handler,
      memorySize: 512,
      timeout: Duration.seconds(HISTORY_INDEXER.timeoutSeconds),
      environment: {},
    }).function
    // Reads heads, pointers and items; writes only the history (MHIST#) and the pointers (PROVREF#)
    // (HISTORY_INDEXER_ACCESS, which the local runs hold it to too).
    grantAccess(this.function, 'history-indexer', HISTORY_INDEXER_ACCESS, { table: props.table })
    this.consumer = new StreamConsumer(this, 'Stream', {
      consumer: HISTORY_INDEXER.functionId,
      function: this.function,
      table: props.table,
      batchSize: 100,
      retryAttempts: 10,
      maxLag: HISTORY_LAG_ALARM,
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.or('INSERT', 'MODIFY'),
          dynamodb: {
            Keys: { pk: { S: FilterRule.beginsWith(BANK_REQUEST_PREFIX) } },
            NewImage: { kind: { S: FilterRule.isEqual('TRANSFER') } },
          },
        }),
      ],
    })
    new Alarm(this, 'Errors', {
      alarmDescription: 'history-indexer: batches failing (the stream retries them, then dead-letters them)',
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
  }
}
