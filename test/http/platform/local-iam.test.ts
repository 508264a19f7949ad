import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, tableName } from '#lib/platform/db/client.ts'
import { type Access, mergeAccess } from '#lib/platform/iam/access.ts'
import { accessOfFunctions } from '#lib/service/function-access.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { asFunction, type Grants, installLocalIam } from '../../../scripts/local/iam.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * Every local run holds each function to its role (scripts/local/iam.ts): DynamoDB Local checks no
 * permission, so without this a call outside the role passes every test and fails first in AWS, as
 * batch submission did (BatchWriteItem, granted to no role).
 */

let api: TestApi
let clients: DevClients
/** The grants the run enforces (sources or a synth's): each test that narrows them puts them back. */
let runGrants: Grants
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  runGrants = installLocalIam()
})
afterAll(async () => {
  installLocalIam(runGrants)
  await api?.close()
})

/** The run's grants with `functionId`'s table grants replaced by `table`. */
function withTable(functionId: string, table: Access['table']): Grants {
  const grants = new Map(runGrants)
  grants.set(functionId, { ...grants.get(functionId)!, table })
  return grants
}

const BATCH = '/api/v1/app/invoice/batch'

describe('the local IAM guard', () => {
  it("refuses batch submission's BatchWriteItem without a grant for it, and passes it with the grant", async () => {
    const submit = runGrants.get('app-invoice-batch-submit')!
    // Its role as it was before: every other table action, but no BatchWriteItem.
    const without = (submit.table ?? []).filter((g) => !g.actions.includes('BatchWriteItem'))
    expect(without.length).toBeLessThan(submit.table!.length)
    installLocalIam(withTable('app-invoice-batch-submit', without))
    try {
      const refused = await clients.app.post<any>(BATCH, { action: 'validate', invoices: [buildInvoice()] })
      // The handler maps an error it does not know to a 500 with a generic message, as in AWS.
      expect(refused.status).toBe(500)
    } finally {
      installLocalIam(runGrants)
    }
    const accepted = await clients.app.post<any>(BATCH, { action: 'validate', invoices: [buildInvoice()] })
    expect(accepted.status).toBe(202)
  })

  it('throws what AWS throws: AccessDeniedException, HTTP 400, naming the role, action and resource', async () => {
    const put = () =>
      db().send(new PutCommand({ TableName: tableName(), Item: { pk: 'BATCH#iam-test', sk: 'BATCH' } }))
    const error = await asFunction('app-invoice-batch-status', put).catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
      message: `User: arn:aws:sts::000000000000:assumed-role/app-invoice-batch-status/app-invoice-batch-status is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:local:000000000000:table/${tableName()} because no identity-based policy allows the dynamodb:PutItem action`,
    })
    // Outside any function (test setup, seeding, the CLI) nothing is checked.
    await expect(put()).resolves.toBeDefined()
  })

  it('holds each item of a batch or transaction to the key prefixes of the grant', async () => {
    const grants = withTable('app-invoice-batch-submit', [
      { actions: ['GetItem', 'PutItem'], keys: ['BATCH#'] },
    ])
    installLocalIam(grants)
    try {
      const get = (pk: string) =>
        asFunction('app-invoice-batch-submit', () =>
          db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: 'BATCH' } })),
        )
      await expect(get('BATCH#iam-test')).resolves.toBeDefined()
      await expect(get('IRN#iam-test')).rejects.toMatchObject({ name: 'AccessDeniedException' })
      // A transaction is authorised item by item: one item outside the prefixes refuses it all.
      const put = (pk: string) => ({ Put: { TableName: tableName(), Item: { pk, sk: 'BATCH' } } })
      const transact = (...items: ReturnType<typeof put>[]) =>
        asFunction('app-invoice-batch-submit', () =>
          db().send(new TransactWriteCommand({ TransactItems: items })),
        )
      await expect(transact(put('BATCH#iam-1'), put('BATCH#iam-2'))).resolves.toBeDefined()
      await expect(transact(put('BATCH#iam-3'), put('IRN#iam-3'))).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining('dynamodb:PutItem'),
      })
      const written = await db().send(
        new GetCommand({ TableName: tableName(), Key: { pk: 'BATCH#iam-3', sk: 'BATCH' } }),
      )
      expect(written.Item).toBeUndefined()
    } finally {
      installLocalIam(runGrants)
    }
  })

  it('refuses a field decryption outside the records a function may open', async () => {
    const { decryptField, encryptField } = await import('#lib/platform/crypto/fields.ts')
    const sealed = await encryptField('secret', { record: 'invoice', id: 'iam-test', field: 'note' })
    const open = (functionId: string) =>
      asFunction(functionId, () => decryptField(sealed, { record: 'invoice', id: 'iam-test', field: 'note' }))
    await expect(open('si-get-invoice')).resolves.toBe('secret')
    await expect(open('app-invoice-confirm')).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('kms:Decrypt'),
    })
  })

  it('knows every function the local runner invokes', () => {
    expect([...runGrants.keys()].sort()).toEqual([...accessOfFunctions().keys()].sort())
    expect(mergeAccess(...runGrants.values()).table?.length).toBeGreaterThan(0)
  })
})
