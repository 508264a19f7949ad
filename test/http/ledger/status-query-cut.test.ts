import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import { getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { type DynamoInterceptor, startDynamoInterceptor } from '../../support/dynamo-interceptor.ts'
import { transferBody } from '../../support/transfers.ts'

/**
 * CONTRACT 24: the status query settles every timeout. The API talks to DynamoDB through a proxy that
 * steps into one transfer's TransactWriteItems: it holds DynamoDB's answer after the commit, so the
 * function never replies (as a Lambda that times out after committing) and the switch gives up; or it
 * runs a status query between the transfer's reads and its commit.
 */
let interceptor: DynamoInterceptor
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  interceptor = await startDynamoInterceptor(inject('dynamoEndpoint'))
  api = await startApi({ dynamoEndpoint: interceptor.endpoint })
  clients = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await interceptor?.close()
})

const TRANSFER = '/api/v1/transactions/transfer'
const STATUS = '/api/v1/transactions/status-query'
type BankReply = Record<string, unknown> & { responseCode: string }

async function freshAccount(balanceKobo: number) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, name: 'Cut account', balanceKobo })
  return accountNumber
}
const balanceOf = async (accountNumber: string) => (await getAccount(accountNumber))!.balanceKobo

describe('POST /api/v1/transactions/status-query after a lost reply', () => {
  it('finds a transfer that committed and then never replied, debited once', async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 123.45 })
    const committed = interceptor.intercept({
      operation: 'TransactWriteItems',
      marker: body.requestId,
      hold: true,
    })
    const raw = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
    })
    const abort = new AbortController()
    const sent = raw.request('POST', TRANSFER, body, {}, abort.signal)
    await committed
    // The switch times out: the reply is lost for good.
    abort.abort()
    await expect(sent).rejects.toThrow()

    const query = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(200)
    expect(query.body).toMatchObject({
      responseCode: '00',
      status: 'SUCCESSFUL',
      requestId: body.requestId,
      accountNumber,
      amount: 123.45,
      iso20022: { status: 'ACSC', reason: null },
    })
    expect(await balanceOf(accountNumber)).toBe(100_000 - 12_345)
  })

  it('refuses with 25 a transfer whose requestId a status query declared never received between its reads and its commit', async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 50 })
    let queried: { status: number; body: BankReply } | undefined
    const reached = interceptor.intercept({
      operation: 'TransactWriteItems',
      marker: body.requestId,
      before: async () => {
        queried = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
      },
    })
    const late = await clients.switch.post<BankReply>(TRANSFER, body)
    await reached
    expect(queried?.status).toBe(404)
    expect(queried?.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    expect(late.status).toBe(404)
    expect(late.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    expect(await balanceOf(accountNumber)).toBe(100_000)
  })
})
