import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import {
  AttributeType,
  Billing,
  ProjectionType,
  StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb'
import { Secret } from 'aws-cdk-lib/aws-secretsmanager'
import type { Construct } from 'constructs'
import { tableDefinition } from '#lib/db/table.ts'
import type { ServiceSecret } from '#lib/routes.ts'

/** Stages whose data must survive a `cdk destroy` or a mistaken replacement. */
export function isProtectedStage(stage: string, protect?: boolean): boolean {
  return protect ?? stage === 'prod'
}

export interface DataStackProps extends StackProps {
  stage: string
  /** Deletion protection and RETAIN; defaults to true for `prod` only. */
  protect?: boolean
}

/** The single table. Its shape comes from lib/db/table.ts, which local tables are created from too. */
export class DataStack extends Stack {
  readonly table: TableV2
  /**
   * The service's private keys. The stack creates the secrets empty (CloudFormation cannot make an
   * Ed25519 or RSA key); `npm run cli -- keys provision` fills them once after the first deploy.
   */
  readonly secrets: Record<ServiceSecret, Secret>

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props)
    const protect = isProtectedStage(props.stage, props.protect)
    const stringKey = (name: string) => ({ name, type: AttributeType.STRING })

    this.table = new TableV2(this, 'Table', {
      partitionKey: stringKey(tableDefinition.partitionKey),
      sortKey: stringKey(tableDefinition.sortKey),
      globalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType.ALL,
      })),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // AWS-managed for now; a customer-managed KMS key replaces it in a later change.
      encryption: TableEncryptionV2.awsManagedKey(),
      // NEW_IMAGE is what the outbox sender will read; enabling it now avoids a table update later.
      dynamoStream: StreamViewType.NEW_IMAGE,
      deletionProtection: protect,
      removalPolicy: protect ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    })

    const secret = (id: string, name: string, description: string) => {
      const created = new Secret(this, id, { secretName: `einvoicing/${props.stage}/${name}`, description })
      created.applyRemovalPolicy(protect ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
      return created
    }
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
    }
  }
}
