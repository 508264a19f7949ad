/**
 * What one request costs in AWS, from what bench/cost.ts measures: pure arithmetic over published
 * list prices (test/unit/bench/pricing.test.ts).
 *
 * Prices: US East (N. Virginia), us-east-1, on-demand list prices of the AWS pricing pages below
 * (DynamoDB's since its on-demand price cut of 2024-11-01); no free tier, no volume tier past the
 * first. Checked on 2026-11-28 against stored copies of public pages, none of which differed from the
 * figures here. The AWS pages themselves render their rate tables from pricing tokens, so their
 * stored text shows the terms (units, metering) but few numbers; the numbers were read from:
 * - DynamoDB on-demand, $0.625 per million WRU and $0.125 per million RRU (Standard table class):
 *   the terms from https://aws.amazon.com/dynamodb/pricing/on-demand/, the rates from
 *   https://airbyte.com/data-engineering-resources/dynamodb-pricing ("Pricing Structure (US East
 *   Region)") and the AWS Price List transcription at
 *   https://raw.githubusercontent.com/api-evangelist/amazon-dynamodb/refs/heads/main/plans/amazon-dynamodb-plans-pricing.yml;
 * - Lambda Arm, $0.0000133334 per GB-second (first 7.5 billion a month) and $0.20 per million
 *   requests: https://cloudchipr.com/blog/aws-lambda-pricing (N. Virginia, Arm table), the arm64
 *   base rate in artillery's Lambda price table (1333340e-11,
 *   https://app.unpkg.com/artillery@2.0.28/files/lib/platform/aws-lambda/prices.js), and the
 *   request rate transcribed from https://aws.amazon.com/lambda/pricing/ at
 *   https://raw.githubusercontent.com/api-evangelist/aws-lambda/refs/heads/main/plans/aws-lambda-plans-pricing.yml;
 * - API Gateway HTTP API, $1.00 per million for the first 300 million a month, metered per 512 KB:
 *   the worked example of https://aws.amazon.com/api-gateway/pricing/ (transcribed at
 *   https://raw.githubusercontent.com/api-evangelist/amazon-web-services/refs/heads/main/plans/amazon-web-services-plans-pricing.yml),
 *   https://www.apigatewaycost.com/aws and https://www.stormit.cloud/blog/amazon-api-gateway-pricing
 *   (the 512 KB metering);
 * - KMS, $0.03 per 10,000 requests (symmetric): https://aws.amazon.com/kms/pricing/ (terms),
 *   https://www.wring.co/blog/aws-kms-pricing-guide and
 *   https://www.factualminds.com/blog/aws-kms-pricing-keys-requests-multi-region/ (us-east-1, June 2026);
 * - CloudWatch Logs, Standard class ingestion $0.50 per GB: https://c3x.dev/blog/cloudwatch-logs-cost-optimization
 *   (us-east-1, June 2026) and https://hykell.com/knowledge-base/aws-cloudwatch-logs-pricing (N. Virginia).
 * Check https://aws.amazon.com/<service>/pricing/ (sources, below) before quoting a figure, and change
 * it here.
 */
export const PRICES = {
  region: 'us-east-1',
  /** When the prices were last checked against the pages (above). */
  date: '2026-11-28',
  /** DynamoDB on-demand (Standard table class), per write / read request unit. */
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  /** Lambda on Arm (Graviton, as infra/constructs/api-function.ts deploys), per GB-second and per request. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway HTTP API, first 300 million a month, per request (metered per 512 KB of request). */
  httpApiRequest: 1.0 / 1e6,
  /** KMS, per API request (Decrypt, GenerateDataKey, Encrypt): $0.03 per 10,000. */
  kmsRequest: 0.03 / 10_000,
  /** CloudWatch Logs, Standard log class, ingestion per GB (2^30 bytes). */
  logsIngestGb: 0.5,
  sources: {
    dynamodb: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    lambda: 'https://aws.amazon.com/lambda/pricing/',
    apiGateway: 'https://aws.amazon.com/api-gateway/pricing/',
    kms: 'https://aws.amazon.com/kms/pricing/',
    cloudwatch: 'https://aws.amazon.com/cloudwatch/pricing/',
  },
} as const

export type Prices = Omit<typeof PRICES, 'sources' | 'region' | 'date'>

/** What one request uses. */
export interface RequestUsage {
  readUnits: number
  writeUnits: number
  /** The handler's duration; Lambda bills it rounded up to the millisecond. */
  lambdaMs: number
  memoryMb: number
  /** The request body's bytes: an HTTP API request is metered per 512 KB. */
  requestBytes: number
  kmsRequests: number
  logBytes: number
}

/** Dollars per request, by service, and their sum. */
export interface Cost {
  dynamodb: number
  lambda: number
  apiGateway: number
  kms: number
  logs: number
  total: number
}

const HTTP_API_METER_BYTES = 512 * 1024

export function requestCost(u: RequestUsage, p: Prices = PRICES): Cost {
  const dynamodb = u.readUnits * p.dynamoReadUnit + u.writeUnits * p.dynamoWriteUnit
  const gbSeconds = (u.memoryMb / 1024) * (Math.ceil(u.lambdaMs) / 1000)
  const lambda = gbSeconds * p.lambdaGbSecond + p.lambdaRequest
  const apiGateway = Math.max(1, Math.ceil(u.requestBytes / HTTP_API_METER_BYTES)) * p.httpApiRequest
  const kms = u.kmsRequests * p.kmsRequest
  const logs = (u.logBytes / 2 ** 30) * p.logsIngestGb
  return { dynamodb, lambda, apiGateway, kms, logs, total: dynamodb + lambda + apiGateway + kms + logs }
}

/** Dollars per million requests. */
export const perMillion = (dollars: number) => dollars * 1e6

/**
 * DynamoDB's published unit rules, for a call that reports no consumed capacity (a write refused by
 * its condition): a write is 1 unit per KB (rounded up) of the item, a strongly consistent read 1 unit
 * per 4 KB, an eventually consistent one half that, a transactional one twice; each index an item is
 * written to costs its projected size again.
 */
export function writeUnits(itemBytes: number, { transactional = false, indexes = 0 } = {}): number {
  const perCopy = Math.max(1, Math.ceil(itemBytes / 1024))
  return perCopy * (1 + indexes) * (transactional ? 2 : 1)
}

/**
 * A TransactWriteItems call's write units by the published rules: each item rounded up to its own KB
 * and counted twice on the table; each index copy once, rounded up on its own (a transaction's changes
 * propagate to the indexes after it completes: DynamoDB developer guide, "Amazon DynamoDB
 * Transactions: How it works"). DynamoDB Local reports a transaction as if its items were one item (2 units per KB of
 * their total, and an index's copies by their total), so four 300-byte items read 2 units on the table
 * instead of 8: bench/request-cost/target.ts prices every transaction with this instead.
 */
export function transactionUnits(items: { bytes: number; indexes: string[] }[]): {
  table: number
  indexes: Record<string, number>
} {
  const indexes: Record<string, number> = {}
  let table = 0
  for (const item of items) {
    const perKb = Math.max(1, Math.ceil(item.bytes / 1024))
    table += perKb * 2
    for (const index of item.indexes) indexes[index] = (indexes[index] ?? 0) + perKb
  }
  return { table, indexes }
}

export function readUnits(
  bytes: number,
  { consistent = true, transactional = false }: { consistent?: boolean; transactional?: boolean } = {},
): number {
  const blocks = Math.max(1, Math.ceil(bytes / 4096))
  return transactional ? blocks * 2 : consistent ? blocks : blocks / 2
}

/**
 * The floor of a request: what it logically needs (its reads and writes, priced the same way), one
 * API request and one Lambda invocation with no duration, logs or KMS. A route's ratio is its measured
 * cost over this.
 */
export function floorCost(floor: { readUnits: number; writeUnits: number }, p: Prices = PRICES): number {
  return (
    floor.readUnits * p.dynamoReadUnit +
    floor.writeUnits * p.dynamoWriteUnit +
    p.httpApiRequest +
    p.lambdaRequest
  )
}
