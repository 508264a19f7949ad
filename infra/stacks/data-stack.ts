import { Aspects, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import {
  AttributeType,
  Billing,
  ProjectionType,
  StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb'
import { Key } from 'aws-cdk-lib/aws-kms'
import { Secret } from 'aws-cdk-lib/aws-secretsmanager'
import type { Construct } from 'constructs'
import { type IndexDefinition, projectionProblems, tableDefinition } from '#lib/platform/db/table.ts'
import type { ModeSecret } from '#lib/service/routes.ts'
import { AlarmsNotify, AlarmTopic } from '../constructs/alarms.ts'
import { acknowledge } from '../constructs/nag.ts'
import type { StageSettings } from '../settings.ts'

export interface DataStackProps extends StackProps {
  stage: string
  /** The stage's settings (infra/stages/<stage>.json): alarm e-mails, retention, deletion protection. */
  settings: Pick<StageSettings, 'alarmEmails' | 'retention' | 'deletionProtection'>
}

/** The data stack's output names: the CLI's `--stage` reads them (scripts/cli/stage.ts). */
export const DATA_OUTPUTS = {
  tableName: 'TableName',
  tableArn: 'TableArn',
  dataKeyArn: 'DataKeyArn',
  alarmTopicArn: 'AlarmTopicArn',
} as const

/** The single table. Its shape comes from lib/platform/db/table.ts, which local tables are created from too. */
export class DataStack extends Stack {
  readonly table: TableV2
  /**
   * The customer-managed key that wraps the field-level data keys (client secrets, invoice notes):
   * only the functions that decrypt or encrypt those fields are granted on it (the area stacks).
   */
  readonly dataKey: Key
  /**
   * The service's private keys. The stack creates the secrets empty (CloudFormation cannot make an
   * Ed25519 or RSA key); `npm run cli -- keys provision` fills them once after the first deploy.
   */
  readonly secrets: Record<ModeSecret, Secret>
  /** The stage's alarm topic: every alarm of the stage notifies it. */
  readonly alarmTopic: AlarmTopic['topic']

  constructor(scope: Construct, id: string, props: DataStackProps) {
    // Deletion protection: the table refuses DeleteTable, and this stack refuses `cdk destroy`.
    super(scope, id, { ...props, terminationProtection: props.settings.deletionProtection })
    const { retention, deletionProtection } = props.settings
    const stringKey = (name: string) => ({ name, type: AttributeType.STRING })
    const keep = retention.keepOnDelete ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY
    this.dataKey = new Key(this, 'DataKey', {
      description: `E-invoicing field encryption: client secrets and invoice notes (${props.stage})`,
      alias: `alias/einvoicing-${props.stage}-data`,
      enableKeyRotation: true,
      removalPolicy: keep,
    })

    // DynamoDB Local takes index projections DynamoDB refuses (more than 20 attributes an index):
    // synth stops on them, not the deploy.
    const indexes: readonly IndexDefinition[] = tableDefinition.globalSecondaryIndexes
    const problems = projectionProblems(indexes)
    if (problems.length) throw new Error(`lib/platform/db/table.ts: ${problems.join('; ')}`)
    this.table = new TableV2(this, 'Table', {
      partitionKey: stringKey(tableDefinition.partitionKey),
      sortKey: stringKey(tableDefinition.sortKey),
      globalSecondaryIndexes: indexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        ...(index.projection.type === 'ALL'
          ? { projectionType: ProjectionType.ALL }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }),
      })),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: retention.pointInTimeRecovery },
      // AWS-managed on purpose. Not the data key: every function using the table would get
      // kms:Decrypt on it through its table grant, and so could open every client secret. And a
      // table CMK (TableEncryptionV2.customerManagedKey) needs a region-specific stack, which these
      // environment-agnostic stacks are not. What must not leak is encrypted field by field anyway.
      encryption: TableEncryptionV2.awsManagedKey(),
      // What the asynchronous consumers read (lib/service/consumers.ts), the same view local tables have.
      dynamoStream: StreamViewType[tableDefinition.streamViewType],
      deletionProtection,
      removalPolicy: keep,
    })

    const secret = (id: string, name: string, description: string) => {
      const created = new Secret(this, id, { secretName: `einvoicing/${props.stage}/${name}`, description })
      created.applyRemovalPolicy(keep)
      acknowledge(
        created,
        'AwsSolutions-SMG4',
        'An Ed25519 or RSA private key whose public half is published (JWKS, QR verification): rotating it is a planned change with an overlap of both public keys (docs/operations.md), not a Lambda rotation schedule',
      )
      return created
    }
    // Each key twice (CONTRACT 18): test-mode invoices and QR codes are made with keys of their own.
    this.secrets = {
      'signing-key': secret(
        'SigningKey',
        'signing-key',
        'Ed25519 private key (PKCS#8 PEM) that stamps signed invoices',
      ),
      'qr-authority-key': secret(
        'QrAuthorityKey',
        'qr-authority-key',
        'RSA-2048 private key (PKCS#8 PEM) of the QR authority',
      ),
      'test-signing-key': secret(
        'TestSigningKey',
        'test-signing-key',
        'Ed25519 private key (PKCS#8 PEM) that stamps test-mode (sandbox) invoices',
      ),
      'test-qr-authority-key': secret(
        'TestQrAuthorityKey',
        'test-qr-authority-key',
        'RSA-2048 private key (PKCS#8 PEM) of the test-mode (sandbox) QR codes',
      ),
    }

    this.alarmTopic = new AlarmTopic(this, 'Alarms', {
      stage: props.stage,
      emails: props.settings.alarmEmails,
    }).topic
    Aspects.of(this).add(new AlarmsNotify(this.alarmTopic))

    const output = (name: string, value: string, description: string) =>
      new CfnOutput(this, name, { value, description })
    output(DATA_OUTPUTS.tableName, this.table.tableName, 'TABLE_NAME: the one table')
    output(DATA_OUTPUTS.tableArn, this.table.tableArn, 'The table ARN (IAM policies, backups)')
    output(DATA_OUTPUTS.dataKeyArn, this.dataKey.keyArn, 'DATA_KEY_ARN: the field-encryption KMS key')
    output(DATA_OUTPUTS.alarmTopicArn, this.alarmTopic.topicArn, 'The SNS topic every alarm notifies')
  }
}
