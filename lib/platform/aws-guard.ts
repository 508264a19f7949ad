/**
 * The one question every module that calls AWS asks before the call: "may the function I run in do
 * this?". In AWS nothing is installed and the answer costs one global lookup: IAM itself decides.
 * Locally (the local server, `npm start -- --bundles`, the test suites) scripts/local/iam.ts installs
 * a guard that answers as the calling function's IAM role would, and throws the AccessDeniedException
 * AWS throws, so a call outside the role fails in every local run, not first in AWS.
 *
 * The guard lives on the process's global object under a registered symbol, not in this module: a
 * function served from its Lambda bundle carries its own copy of this module and must still find the
 * guard the local runner installed (as lib/platform/async/queue.ts does for the local queues). This module
 * imports nothing, so any lib/ folder may use it without depending on the IAM model (lib/platform/iam).
 */

/** One item-level DynamoDB request: a transaction or batch is one of these per item it names. */
export interface DynamoItemRequest {
  /** The IAM action that governs it: `GetItem`, `PutItem`, `Query`, `BatchWriteItem`... */
  action: string
  table: string
  /** The index a Query reads, when it reads one. */
  index?: string
  /**
   * The partition-key value IAM sees as dynamodb:LeadingKeys: the item's `pk`, or for a Query the
   * value its key condition gives the partition key of the table or index it reads. Undefined when
   * the request names none (a Scan).
   */
  leadingKey?: string
}

export type AwsCall =
  | { service: 'dynamodb'; requests: DynamoItemRequest[] }
  /** KMS under the field encryption's data key, by the encryption context's `record`. */
  | { service: 'kms'; action: 'Decrypt' | 'GenerateDataKey'; record: string }
  | { service: 'secretsmanager'; action: 'GetSecretValue'; secret: string }
  | { service: 'sqs'; action: 'SendMessage'; queue: string }
  | { service: 'ses'; action: 'SendEmail' }

export type AwsGuard = (call: AwsCall) => void

/**
 * How a DynamoDB command's item requests are read (lib/platform/db/iam-requests.ts). The local runner
 * installs it with the guard, so that code, which only a guard needs, is not in any Lambda bundle.
 */
export type DynamoRequestReader = (command: string, input: Record<string, unknown>) => DynamoItemRequest[]

const GUARD = Symbol.for('einvoicing.localIamGuard')
const READER = Symbol.for('einvoicing.localDynamoRequests')
const holder = globalThis as { [GUARD]?: AwsGuard; [READER]?: DynamoRequestReader }

/** Throws what AWS would throw if the calling function may not make `call`; nothing in AWS. */
export function checkAwsCall(call: AwsCall): void {
  holder[GUARD]?.(call)
}

/** checkAwsCall for a DynamoDB command, read as its item requests only when a guard is installed. */
export function checkDynamoCommand(command: string, input: Record<string, unknown>): void {
  const guard = holder[GUARD]
  if (!guard) return
  const read = holder[READER]
  if (!read) throw new Error('local IAM: a guard is installed without its DynamoDB request reader')
  guard({ service: 'dynamodb', requests: read(command, input) })
}

/**
 * Installed by the local runner only (scripts/local/iam.ts), with the reader of DynamoDB commands;
 * `undefined` removes the guard. A test wrapping the runner's guard passes no reader and keeps its.
 */
export function installAwsGuard(guard: AwsGuard | undefined, readRequests?: DynamoRequestReader): void {
  holder[GUARD] = guard
  if (readRequests) holder[READER] = readRequests
}
