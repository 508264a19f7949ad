import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import {
  AttributeType,
  Billing,
  ProjectionType,
  StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb'
import type { Construct } from 'constructs'
import { tableDefinition } from '#lib/db/table.ts'

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
  }
}
