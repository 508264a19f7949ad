import {
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  paginateQuery,
} from '@aws-sdk/client-dynamodb'
import { localDynamoConfig } from '#lib/platform/db/local.ts'

/**
 * What the local stand-ins for Lambda's event sources keep between runs, as AWS keeps it: each stream
 * consumer's position in each shard (an event source mapping resumes where it stopped, not from the
 * stream's start) and the queued and delayed messages of the in-process queues (SQS holds them while
 * no worker runs). Kept in DynamoDB Local beside the service's table, in a table of its own without a
 * stream (`<table>-local`): with DATA_DIR it lasts as long as the data does; in memory it goes with it.
 * A table of its own, not items in the service's: a checkpoint written there would be a stream record
 * of its own, read by every drive, which would write its checkpoint again.
 */
export interface LocalStateTable {
  checkpoints(consumer: string): Promise<Map<string, string>>
  saveCheckpoint(consumer: string, shardId: string, sequenceNumber: string): Promise<void>
  messages(): Promise<PersistedMessage[]>
  saveMessage(message: PersistedMessage): Promise<void>
  deleteMessage(id: string): Promise<void>
  close(): void
}

export interface PersistedMessage {
  id: string
  queue: string
  body: string
  /** When it is next handed to its consumer (epoch ms). */
  dueAt: number
  receiveCount: number
}

export const localStateTableName = (tableName: string) => `${tableName}-local`

const S = (value: string) => ({ S: value })

async function ensure(client: DynamoDBClient, name: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }))
    return
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error
  }
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    )
  } catch (error) {
    // Made meanwhile by another drive of the same run.
    if ((error as Error).name !== 'ResourceInUseException') throw error
  }
}

export async function openLocalStateTable(endpoint: string, tableName: string): Promise<LocalStateTable> {
  const client = new DynamoDBClient({ ...localDynamoConfig(endpoint), maxAttempts: 2 })
  const TableName = localStateTableName(tableName)
  await ensure(client, TableName)
  const all = async (pk: string) => {
    const items: Record<string, { S?: string }>[] = []
    const pages = paginateQuery(
      { client },
      { TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(pk) } },
    )
    for await (const page of pages) items.push(...((page.Items ?? []) as Record<string, { S?: string }>[]))
    return items
  }
  return {
    async checkpoints(consumer) {
      const items = await all(`STREAM#${consumer}`)
      return new Map(items.map((i) => [i.sk!.S!, i.after!.S!]))
    },
    async saveCheckpoint(consumer, shardId, sequenceNumber) {
      await client.send(
        new PutItemCommand({
          TableName,
          Item: { pk: S(`STREAM#${consumer}`), sk: S(shardId), after: S(sequenceNumber) },
        }),
      )
    },
    async messages() {
      return (await all('QUEUE')).map((i) => JSON.parse(i.message!.S!) as PersistedMessage)
    },
    async saveMessage(message) {
      await client.send(
        new PutItemCommand({
          TableName,
          Item: { pk: S('QUEUE'), sk: S(message.id), message: S(JSON.stringify(message)) },
        }),
      )
    },
    async deleteMessage(id) {
      await client.send(new DeleteItemCommand({ TableName, Key: { pk: S('QUEUE'), sk: S(id) } }))
    },
    close: () => client.destroy(),
  }
}

/** Drops the side table with the service's (the tests' cleanup). */
export async function dropLocalStateTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient(localDynamoConfig(endpoint))
  try {
    await client.send(new DeleteTableCommand({ TableName: localStateTableName(tableName) }))
  } catch {
    // Never made, or already gone.
  } finally {
    client.destroy()
  }
}
