import { randomUUID } from 'node:crypto'
import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { signAreaA } from '#client/signing.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { type DynamoDbLocal, startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'

/**
 * What the large-invoice bench and its profiler share: their own DynamoDB Local with a fresh table
 * seeded as `npm start` seeds it, named in the environment before any handler module is imported
 * (as a function's module is loaded in Lambda), and the signed validate event.
 */
export async function seededLocalTable(env: Record<string, string> = {}): Promise<DynamoDbLocal> {
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  try {
    Object.assign(process.env, {
      TABLE_NAME: `large-invoice-${randomUUID().slice(0, 8)}`,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      STAGE: 'local',
      AWS_REGION: 'eu-west-1',
      LOG_LEVEL: 'SILENT',
      ...env,
    })
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!)
    await (await import('../scripts/local/seed.ts')).seedLocal()
    return dynamo
  } catch (error) {
    await dynamo.stop()
    throw error
  }
}

export const VALIDATE_PATH = '/api/v1/si/validate'

/**
 * The API Gateway event of a POST si/validate with this body, signed with the dev SI key as an
 * integrator signs it (a fresh timestamp, so each is a new request): what the large-invoice benches
 * hand the Lambda handler.
 */
export function validateEvent(body: string): APIGatewayProxyEventV2 {
  const now = new Date()
  return {
    version: '2.0',
    routeKey: `POST ${VALIDATE_PATH}`,
    rawPath: VALIDATE_PATH,
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      ...signAreaA(DEV.clients.si, { method: 'POST', target: VALIDATE_PATH, body }),
    },
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: 'POST',
        path: VALIDATE_PATH,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'bench',
      },
      requestId: randomUUID(),
      routeKey: `POST ${VALIDATE_PATH}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body,
    isBase64Encoded: false,
  }
}
