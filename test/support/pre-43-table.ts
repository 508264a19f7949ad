import { readFileSync } from 'node:fs'
import { CreateTableCommand, type DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb'
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { createTableInput, tableDefinition } from '#lib/platform/db/table.ts'

/**
 * A table as the service kept it before issue 43, for the upgrade test: its indexes (gsi1..gsi3,
 * projecting ALL, today's too) and the items four signs of that code wrote (test/fixtures/pre-issue-43,
 * whose README says how they were made).
 */

/** The fixture's invoices, signed in this order by the dev supplier. */
export const PRE43 = {
  /** 381, NGN, buyer X; fully credited by D. */
  A: 'MIG43A-94ND90NR-20261110',
  /** 381, USD, buyer X. */
  B: 'MIG43B-94ND90NR-20261115',
  /** 381, NGN, the dev buyer. */
  C: 'MIG43C-94ND90NR-20261120',
  /** 380, NGN, buyer X: a credit note of all of A. */
  D: 'MIG43D-94ND90NR-20261121',
  buyerX: { tin: '43430001-0001', name: 'Buyer X Ltd' },
}

const FIXTURE = new URL('../fixtures/pre-issue-43/signed-invoices.json', import.meta.url)

/** Creates the table and puts the fixture's items on it. */
export async function pre43Table(dynamo: DynamoDBClient, tableName: string): Promise<void> {
  await dynamo.send(new CreateTableCommand(createTableInput(tableName)))
  await dynamo.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  )
  const { items } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { items: Record<string, unknown>[] }
  const doc = DynamoDBDocumentClient.from(dynamo)
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }))
    const { UnprocessedItems } = await doc.send(
      new BatchWriteCommand({ RequestItems: { [tableName]: batch } }),
    )
    if (Object.keys(UnprocessedItems ?? {}).length) throw new Error('DynamoDB Local left items unwritten')
  }
}
