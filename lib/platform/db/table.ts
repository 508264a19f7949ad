/**
 * The single table's shape, shared by the CDK DataStack and by local table creation so the two
 * cannot drift apart.
 */
export const TTL_ATTRIBUTE = 'expiresAt'

export interface IndexDefinition {
  indexName: string
  partitionKey: string
  sortKey: string
}

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Generic GSIs: what goes into them is decided by the key builders in keys.ts. */
  globalSecondaryIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ] satisfies IndexDefinition[],
  ttlAttribute: TTL_ATTRIBUTE,
  /**
   * The stream the asynchronous consumers read (lib/service/consumers.ts): new images only, enough for the
   * outbox items, events and batches they act on. Local tables have it too, read by the same consumers.
   */
  streamViewType: 'NEW_IMAGE',
} as const

export type IndexName = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName']

/** The CreateTable input for DynamoDB Local (on-demand, all GSIs projecting everything). */
export function createTableInput(tableName: string) {
  const keyAttributes = [
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...tableDefinition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((i) => ({
      IndexName: i.indexName,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  }
}
