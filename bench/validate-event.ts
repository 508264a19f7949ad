import { randomUUID } from 'node:crypto'
import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { signAreaA } from '#lib/client/signing.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'

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
