import { DeleteCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { inMode } from '#lib/platform/mode.ts'

/** Removes test-mode accounts, as a stack that never ran the local seed would lack them. */
export async function dropTestAccounts(accountNumbers: string[]): Promise<void> {
  await inMode('test', () =>
    Promise.all(
      accountNumbers.map((n) =>
        db().send(new DeleteCommand({ TableName: tableName(), Key: keys.account(n) })),
      ),
    ),
  )
}
