import type { AwsCall, DynamoItemRequest } from '#lib/platform/aws-guard.ts'
import type { Access, TableGrant } from './access.ts'

/**
 * Whether a function with `access` may make an AWS call, decided as IAM decides for the policy
 * infra/constructs/grants.ts generates from the same Access (see lib/platform/iam/access.ts for how IAM reads
 * transactions, batches and dynamodb:LeadingKeys, with the documents that say so).
 */

/** The account and region local ARNs are written in (DynamoDB Local's region is `local`). */
export const LOCAL_ACCOUNT = '000000000000'
const arn = (service: string, resource: string) => `arn:aws:${service}:local:${LOCAL_ACCOUNT}:${resource}`

export interface Denial {
  /** `dynamodb:BatchWriteItem` */
  action: string
  resource: string
}

/** IAM's dynamodb:LeadingKeys with ForAllValues:StringLike `<prefix>*`: the key must start with a prefix. */
function allowsItem(grant: TableGrant, request: DynamoItemRequest): boolean {
  if (!grant.actions.includes(request.action as TableGrant['actions'][number])) return false
  if (request.index !== undefined && !grant.indexes?.includes(request.index as never)) return false
  if (!grant.keys) return true
  // A request that names no partition key (a Scan) has an empty LeadingKeys set, which ForAllValues
  // lets through: a grant of Scan limited to key prefixes would still allow the whole table.
  if (request.leadingKey === undefined) return true
  return grant.keys.some((prefix) => request.leadingKey!.startsWith(prefix))
}

function tableDenial(access: Access, request: DynamoItemRequest): Denial | undefined {
  if ((access.table ?? []).some((grant) => allowsItem(grant, request))) return undefined
  const resource = `table/${request.table}${request.index ? `/index/${request.index}` : ''}`
  return { action: `dynamodb:${request.action}`, resource: arn('dynamodb', resource) }
}

/** The first part of `call` that `access` does not allow, or undefined when it allows all of it. */
export function denialOf(access: Access, call: AwsCall): Denial | undefined {
  switch (call.service) {
    case 'dynamodb':
      for (const request of call.requests) {
        const denial = tableDenial(access, request)
        if (denial) return denial
      }
      return undefined
    case 'kms': {
      const records: readonly string[] = (call.action === 'Decrypt' ? access.decrypt : access.encrypt) ?? []
      return records.includes(call.record)
        ? undefined
        : { action: `kms:${call.action}`, resource: arn('kms', 'key/data-key') }
    }
    case 'secretsmanager':
      return (access.secrets as readonly string[] | undefined)?.includes(call.secret)
        ? undefined
        : {
            action: 'secretsmanager:GetSecretValue',
            resource: arn('secretsmanager', `secret:${call.secret}`),
          }
    case 'sqs':
      return (access.queues as readonly string[] | undefined)?.includes(call.queue)
        ? undefined
        : { action: 'sqs:SendMessage', resource: arn('sqs', call.queue) }
    case 'ses':
      return access.email ? undefined : { action: 'ses:SendEmail', resource: arn('ses', 'identity/*') }
  }
}

/** AWS's AccessDeniedException (what the SDK throws for a 400 with that code), for a role named `functionId`. */
export class AccessDeniedException extends Error {
  override readonly name = 'AccessDeniedException'
  readonly $fault = 'client'
  readonly $metadata = { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 }
  readonly __type = 'com.amazon.coral.service#AccessDeniedException'

  constructor(functionId: string, denial: Denial) {
    super(
      `User: arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${functionId}/${functionId} is not authorized to perform: ${denial.action} on resource: ${denial.resource} because no identity-based policy allows the ${denial.action} action`,
    )
  }
}
