import { join } from 'node:path'
import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import {
  Architecture,
  FilterCriteria,
  FilterRule,
  Runtime,
  StartingPosition,
  Tracing,
} from 'aws-cdk-lib/aws-lambda'
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources'
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs'
import { Construct } from 'constructs'
import { OUTBOX_PREFIX } from '#lib/db/keys.ts'
import { BUNDLING, PROJECT_ROOT } from './api-function.ts'

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

  constructor(scope: Construct, id: string, props: OutboxSenderProps) {
    super(scope, id)
    const logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy,
    })
    this.function = new NodejsFunction(this, 'Function', {
      description: `${props.serviceName} ${props.stage} outbox-sender`,
      entry: join(PROJECT_ROOT, 'functions/notification/outbox-sender.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(30),
      tracing: Tracing.DISABLED,
      logGroup,
      bundling: BUNDLING,
      environment: {
        TABLE_NAME: props.table.tableName,
        STAGE: props.stage,
        SERVICE_NAME: props.serviceName,
        SERVICE_VERSION: props.serviceVersion,
        NODE_OPTIONS: '--enable-source-maps',
        LOG_LEVEL: 'INFO',
        ...(props.sesFromAddress ? { SES_FROM_ADDRESS: props.sesFromAddress } : {}),
      },
    })
    // Reads the admin e-mail list and marks each outbox item SENT with a conditional update.
    props.table.grantReadWriteData(this.function)
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 25,
        bisectBatchOnError: true,
        retryAttempts: 5,
        reportBatchItemFailures: true,
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(OUTBOX_PREFIX) } } },
          }),
        ],
      }),
    )
    // A sender that keeps failing leaves notifications unsent: that must page someone.
    new Alarm(this, 'Errors', {
      alarmDescription: 'outbox-sender: notifications failing to send (the stream retries them)',
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
    if (props.sesFromAddress) {
      const domain = props.sesFromAddress.split('@').pop()!
      const { region, account } = Stack.of(this)
      this.function.addToRolePolicy(
        new PolicyStatement({
          sid: 'SendFromTheConfiguredIdentity',
          effect: Effect.ALLOW,
          actions: ['ses:SendEmail'],
          resources: [
            `arn:aws:ses:${region}:${account}:identity/${props.sesFromAddress}`,
            `arn:aws:ses:${region}:${account}:identity/${domain}`,
          ],
        }),
      )
    }
  }
}
