import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Effect, type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import { tableDefinition } from '#lib/db/table.ts'

/** What a function may do to the table: the most any of its grants allows. */
export type TableAccess = 'none' | 'read' | 'write'

/**
 * The table actions each access level allows, and nothing CDK's grantReadData/grantReadWriteData add
 * beyond them: no Scan (no request path reads the whole table), no stream reads (only stream
 * consumers get those, from their event source), no BatchWriteItem (bulk writes are the CLI's).
 * DeleteItem is a write: the idempotency release and the e-mail list remove items.
 */
export const TABLE_ACTIONS: Record<Exclude<TableAccess, 'none'>, readonly string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
}

/** The table and each of its indexes by name: no `index/*` wildcard. */
export function tableResources(table: ITableV2): string[] {
  return [
    table.tableArn,
    ...tableDefinition.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
  ]
}

/** Grants `access` on the table (nothing for `none`). */
export function grantTable(grantee: IGrantable, table: ITableV2, access: TableAccess): void {
  if (access === 'none') return
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      sid: access === 'write' ? 'TableReadWrite' : 'TableRead',
      effect: Effect.ALLOW,
      actions: [...TABLE_ACTIONS[access]],
      resources: tableResources(table),
    }),
  )
}
