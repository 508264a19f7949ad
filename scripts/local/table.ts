import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type Projection,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import {
  createTableInput,
  type IndexDefinition,
  indexInput,
  tableDefinition,
} from '#lib/platform/db/table.ts'

function client(endpoint: string) {
  return new DynamoDBClient(localDynamoConfig(endpoint))
}

/**
 * Creates the table (from the same definition the CDK stack uses) unless it already exists; a table
 * kept on disk (DATA_DIR) from older code is brought to the definition's stream and indexes.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const dynamo = client(endpoint)
  try {
    try {
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }))
      // A table kept on disk from before the stream drive: give it the stream the consumers read.
      if (!Table?.StreamSpecification?.StreamEnabled) {
        await dynamo.send(
          new UpdateTableCommand({
            TableName: tableName,
            StreamSpecification: createTableInput(tableName).StreamSpecification,
          }),
        )
      }
      if (Table) await upgradeIndexes(dynamo, tableName, Table)
      return
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error
    }
    await dynamo.send(new CreateTableCommand(createTableInput(tableName)))
    await dynamo.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      }),
    )
  } finally {
    dynamo.destroy()
  }
}

export async function dropTable(endpoint: string, tableName: string): Promise<void> {
  const dynamo = client(endpoint)
  try {
    await dynamo.send(new DeleteTableCommand({ TableName: tableName }))
  } catch {
    // Already gone: nothing to do.
  } finally {
    dynamo.destroy()
  }
}

/**
 * A kept table's indexes made the service's: each one missing, or projecting other than declared
 * (issue 43 replaced gsi1..gsi3, projecting ALL, with gsi1k..gsi3k), is built beside the old ones,
 * then those the service does not declare are dropped: the order of docs/operations.md, "Replacing an
 * index".
 */
async function upgradeIndexes(dynamo: DynamoDBClient, tableName: string, table: TableDescription) {
  const wanted: readonly IndexDefinition[] = tableDefinition.globalSecondaryIndexes
  const declared = (name: string | undefined) => wanted.find((w) => w.indexName === name)
  const present = table.GlobalSecondaryIndexes ?? []
  const stale = present.filter((index) => {
    const own = declared(index.IndexName)
    return !own || !sameProjection(index.Projection, indexInput(own).Projection)
  })
  // A service index of another projection goes first: its name is wanted again at once.
  for (const index of stale.filter((i) => declared(i.IndexName)))
    await changeIndex(dynamo, tableName, { drop: index.IndexName! })
  const kept = new Set(present.filter((i) => !stale.includes(i)).map((i) => i.IndexName))
  for (const index of wanted.filter((w) => !kept.has(w.indexName)))
    await changeIndex(dynamo, tableName, { create: index })
  for (const index of stale.filter((i) => !declared(i.IndexName)))
    await changeIndex(dynamo, tableName, { drop: index.IndexName! })
}

/** Whether an index's projection is the declared one (the same attributes, in any order). */
function sameProjection(have: Projection | undefined, want: Projection): boolean {
  const names = (p: Projection | undefined) => [...(p?.NonKeyAttributes ?? [])].sort().join(',')
  return have?.ProjectionType === want.ProjectionType && names(have) === names(want)
}

/**
 * One index created (its key attributes declared, as UpdateTable requires) or dropped, and waited for
 * until the table and its indexes are ACTIVE again: DynamoDB creates or deletes one index per
 * UpdateTable and refuses the next while one is building or going. DynamoDB Local builds one on a
 * small table in well under a second.
 */
export async function changeIndex(
  dynamo: DynamoDBClient,
  tableName: string,
  change: { create: IndexDefinition } | { drop: string },
): Promise<void> {
  if ('drop' in change) {
    await dynamo.send(
      new UpdateTableCommand({
        TableName: tableName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: change.drop } }],
      }),
    )
  } else {
    const index = change.create
    await dynamo.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: 'S' as const,
        })),
        GlobalSecondaryIndexUpdates: [{ Create: indexInput(index) }],
      }),
    )
  }
  for (let attempt = 0; ; attempt++) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }))
    const busy =
      Table?.TableStatus !== 'ACTIVE' ||
      (Table.GlobalSecondaryIndexes ?? []).some((i) => i.IndexStatus !== 'ACTIVE')
    if (!busy) return
    if (attempt >= 600) throw new Error(`Table ${tableName}: its indexes did not settle in a minute`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
