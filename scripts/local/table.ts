import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import { createTableInput, tableDefinition } from '#lib/platform/db/table.ts'

function client(endpoint: string) {
  return new DynamoDBClient(localDynamoConfig(endpoint))
}

/** Creates the table (from the same definition the CDK stack uses) unless it already exists. */
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
