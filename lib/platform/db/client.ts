import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { checkDynamoCommand } from '#lib/platform/aws-guard.ts'
import { config } from '#lib/platform/config.ts'
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
    // Before every call, what the calling function's role would refuse is refused (lib/platform/aws-guard.ts):
    // a no-op in AWS, where IAM decides; locally the check DynamoDB Local does not make. The command is
    // read as IAM reads it (lib/platform/db/iam-requests.ts) only locally, by the reader installed there.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        checkDynamoCommand(context.commandName ?? '', args.input as Record<string, unknown>)
        return next(args)
      },
      { step: 'initialize', name: 'localIamGuard', priority: 'high' },
    )
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    })
  }
  return documentClient
}

export function tableName(): string {
  return config().tableName
}
