import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { config } from '#lib/config.ts'
import { localDynamoConfig } from './local.ts'

let documentClient: DynamoDBDocumentClient | undefined

/**
 * The document client, created once per container and reused across invocations (connection reuse
 * is most of DynamoDB's latency budget in Lambda).
 */
export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { region, dynamoEndpoint } = config()
    const client = new DynamoDBClient({
      region,
      ...(dynamoEndpoint ? { ...localDynamoConfig(dynamoEndpoint), maxAttempts: 2 } : {}),
    })
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    })
  }
  return documentClient
}

export function tableName(): string {
  return config().tableName
}
