import { Stack } from 'aws-cdk-lib'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import type { IQueue } from 'aws-cdk-lib/aws-sqs'
import { QUEUE_URL_ENV, type QueueName } from '#lib/platform/async/queue.ts'
import type { Access, TableGrant } from '#lib/platform/iam/access.ts'
import { type ModeSecret, SECRET_ENV, secretOfMode } from '#lib/service/routes.ts'
import { MODES } from '#lib/platform/mode.ts'

/**
 * A function's IAM policy, generated from its Access (lib/platform/iam/access.ts), the same Access every local
 * run holds the function to (scripts/local/iam.ts): what passes locally is what the role allows.
 * Each table grant is one statement on the table and each index it names by ARN (no `index/*`),
 * with a dynamodb:LeadingKeys condition when it is limited to key prefixes; the data key's use is
 * bound to the encryption contexts' records; secrets and queues are named one by one. The function
 * also learns from its environment the ARN or URL of each thing it is granted.
 */

export interface GrantTargets {
  table: ITableV2
  /** The field-encryption key: every function is told it (none falls back to a local key). */
  dataKey?: IKey
  secrets?: Partial<Record<ModeSecret, ISecret>>
  /** The queues the function may send to, when they are built before it (else grantQueue later). */
  queues?: Partial<Record<QueueName, IQueue>>
  /** SES identities (address and domain) to send from; without them `email` grants nothing. */
  emailIdentities?: string[]
}

const DYNAMODB = 'dynamodb:'

/** The resources of one table grant: the table, and the indexes its reads may use. */
export function tableGrantResources(table: ITableV2, grant: TableGrant): string[] {
  return [table.tableArn, ...(grant.indexes ?? []).map((index) => `${table.tableArn}/index/${index}`)]
}

/** The statement of one table grant. */
export function tableStatement(table: ITableV2, grant: TableGrant, sid: string): PolicyStatement {
  return new PolicyStatement({
    sid,
    effect: Effect.ALLOW,
    actions: grant.actions.map((a) => `${DYNAMODB}${a}`),
    resources: tableGrantResources(table, grant),
    ...(grant.keys
      ? {
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': grant.keys.map((prefix) => `${prefix}*`) },
          },
        }
      : {}),
  })
}

/** Sends to `queue` (SendMessage and what the SDK asks with it) and learns its URL. */
export function grantQueue(fn: LambdaFunction, name: QueueName, queue: IQueue): void {
  queue.grantSendMessages(fn)
  fn.addEnvironment(QUEUE_URL_ENV[name], queue.queueUrl)
}

/**
 * Adds `access` to the function's role and environment. Throws when the access names a secret or a
 * queue the targets do not hold (a queue made after the function is granted with grantQueue).
 */
export function grantAccess(
  fn: LambdaFunction,
  functionId: string,
  access: Access,
  targets: GrantTargets,
): void {
  ;(access.table ?? []).forEach((grant, i) => {
    fn.addToRolePolicy(tableStatement(targets.table, grant, `Table${i + 1}`))
  })
  if (targets.dataKey) {
    const key = targets.dataKey
    fn.addEnvironment('DATA_KEY_ARN', key.keyArn)
    const kms = (sid: string, actions: string[], records: readonly string[] | undefined) => {
      if (!records?.length) return
      fn.addToRolePolicy(
        new PolicyStatement({
          sid,
          actions,
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:EncryptionContext:record': [...records] } },
        }),
      )
    }
    kms('DataKeyDecrypt', ['kms:Decrypt'], access.decrypt)
    // The Encryption SDK's KMS keyring generates a data key (GenerateDataKey), and Encrypt wraps it
    // again where a keyring has more than one KMS key.
    kms('DataKeyEncrypt', ['kms:GenerateDataKey', 'kms:Encrypt'], access.encrypt)
  }
  // A function that uses a key serves both modes, so it reads both modes' secrets.
  for (const name of access.secrets ?? []) {
    for (const mode of MODES) {
      const id = secretOfMode(name, mode)
      const secret = targets.secrets?.[id]
      if (!secret) throw new Error(`${functionId} needs the ${id} secret, but none was passed to it`)
      secret.grantRead(fn)
      fn.addEnvironment(SECRET_ENV[id], secret.secretArn)
    }
  }
  for (const name of access.queues ?? []) {
    const queue = targets.queues?.[name]
    if (queue) grantQueue(fn, name, queue)
  }
  if (access.email && targets.emailIdentities?.length) {
    const { region, account } = Stack.of(fn)
    fn.addToRolePolicy(
      new PolicyStatement({
        sid: 'SendFromTheConfiguredIdentity',
        effect: Effect.ALLOW,
        actions: ['ses:SendEmail'],
        resources: targets.emailIdentities.map(
          (identity) => `arn:aws:ses:${region}:${account}:identity/${identity}`,
        ),
      }),
    )
  }
}
