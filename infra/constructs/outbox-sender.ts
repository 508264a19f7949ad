import { Duration, type RemovalPolicy } from 'aws-cdk-lib'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import { FilterCriteria, FilterRule } from 'aws-cdk-lib/aws-lambda'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import { Construct } from 'constructs'
import { OUTBOX_PREFIX } from '#lib/platform/db/keys.ts'
import { houseFunction } from './api-function.ts'
import { StreamConsumer } from './async-consumer.ts'
import { OUTBOX_SENDER } from '#lib/service/consumers.ts'
import { accessOfConsumer } from '#lib/service/function-access.ts'
import { grantAccess } from './grants.ts'

export interface OutboxSenderProps {
  table: ITableV2
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
  /** A verified SES identity to send from; without it the sender only logs (no SES permission). */
  sesFromAddress?: string
}

/**
 * Sends the outcome notifications that transfers write to the outbox: fed by the table's stream,
 * filtered at the event source to newly inserted outbox items so the function is not invoked for
 * every other write.
 */
export class OutboxSender extends Construct {
  readonly function: NodejsFunction
  readonly consumer: StreamConsumer

  constructor(scope: Construct, id: string, props: OutboxSenderProps) {
    super(scope, id)
    // Its name, handler module, timeout and access: its lib/service/consumers.ts entry, written once there.
    const spec = OUTBOX_SENDER
    this.function = houseFunction(this, {
      ...props,
      name: spec.functionId,
      handler: spec.handler,
      // Sends e-mail in batches: less memory than an API function.
      memorySize: 512,
      timeout: Duration.seconds(spec.timeoutSeconds),
      environment: props.sesFromAddress ? { SES_FROM_ADDRESS: props.sesFromAddress } : {},
    }).function
    // Reads the admin e-mail list and marks each outbox item SENT with a conditional update; sends
    // from the configured identity, if any (its lib/service/consumers.ts entry, lib/service/function-access.ts).
    const domain = props.sesFromAddress?.split('@').pop()
    grantAccess(this.function, spec.functionId, accessOfConsumer(spec), {
      table: props.table,
      ...(props.sesFromAddress ? { emailIdentities: [props.sesFromAddress, domain!] } : {}),
    })
    // Bisect, per-item failures, an on-failure dead-letter queue and the alarms: StreamConsumer.
    this.consumer = new StreamConsumer(this, 'Stream', {
      consumer: spec.functionId,
      function: this.function,
      table: props.table,
      batchSize: 25,
      retryAttempts: 5,
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(OUTBOX_PREFIX) } } },
        }),
      ],
    })
    // A sender that keeps failing leaves notifications unsent: that must page someone.
    new Alarm(this, 'Errors', {
      alarmDescription: 'outbox-sender: notifications failing to send (the stream retries them)',
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
  }
}
