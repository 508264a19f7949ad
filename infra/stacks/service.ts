import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../constructs/api-function.ts'

/** What every function's environment and description carry, the same in every stack of a stage. */
export interface ServiceInfo {
  serviceName: string
  serviceVersion: string
}

export const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** `resource-invoice-types` -> `ResourceInvoiceTypes`: readable logical ids. */
export function constructId(functionId: string): string {
  return functionId
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}

/** Why no route has an API Gateway authorizer (cdk-nag AwsSolutions-APIG4), for the edge and every area. */
export const NO_AUTHORIZER_REASON =
  'Every route authenticates in its function, on the exact bytes received (HMAC request signatures, bearer keys: CONTRACT sections 2 and 6), which an API Gateway authorizer cannot check; the public routes (JWKS, OpenAPI, the 404/405 catch-all) are public by design'
