import { randomUUID } from 'node:crypto'
import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { getAccount, openAccount } from '#lib/ledger/repository.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

/** CONTRACT 24: a reversal is of the full amount, once, and within the reversal window (30 days). */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const TRANSFER = '/api/v1/transactions/transfer'
const REVERSAL = '/api/v1/transactions/reversal'
type BankReply = Record<string, unknown> & { responseCode: string; errors?: { path: string }[] }
const DAY_MS = 86_400_000

async function approvedTransfer(amount: number) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, name: 'Reversal account', balanceKobo: 100_000 })
  const body = transferBody({ accountNumber, amount })
  const reply = await clients.switch.post<BankReply>(TRANSFER, body)
  expect(reply.body.responseCode).toBe('00')
  return { accountNumber, requestId: body.requestId }
}
const balanceOf = async (accountNumber: string) => (await getAccount(accountNumber))!.balanceKobo
const reversalBody = (originalRequestId: string, extra: Record<string, unknown> = {}) => ({
  requestId: `REV-${randomUUID()}`,
  stan: '000021',
  processingCode: '400000',
  originalRequestId,
  ...extra,
})

/** Moves a live transfer of the development switch client `days` into the past, as if made then. */
async function ageTransfer(requestId: string, days: number) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.bankRequest(DEV.switch.clientId, requestId),
      UpdateExpression: 'SET createdAt = :at',
      ExpressionAttributeValues: { ':at': lagosLocalIso(new Date(Date.now() - days * DAY_MS)) },
    }),
  )
}

describe('POST /api/v1/transactions/reversal', () => {
  it('takes the full amount when the reversal names one, and refuses a partial amount with 13 (RJCT AM12) at amount, crediting nothing', async () => {
    const { accountNumber, requestId } = await approvedTransfer(250)
    const partial = await clients.switch.post<BankReply>(REVERSAL, reversalBody(requestId, { amount: 100 }))
    expect(partial.status).toBe(400)
    expect(partial.body).toMatchObject({ responseCode: '13', iso20022: { status: 'RJCT', reason: 'AM12' } })
    expect(partial.body.errors!.map((e) => e.path)).toEqual(['amount'])
    expect(await balanceOf(accountNumber)).toBe(100_000 - 25_000)

    const full = await clients.switch.post<BankReply>(REVERSAL, reversalBody(requestId, { amount: 250 }))
    expect(full.status).toBe(200)
    expect(full.body).toMatchObject({ responseCode: '00', status: 'REVERSED', amount: 250 })
    expect(await balanceOf(accountNumber)).toBe(100_000)
    // A second reversal, whatever its amount, is the ARDT 12.
    const second = await clients.switch.post<BankReply>(REVERSAL, reversalBody(requestId, { amount: 250 }))
    expect(second.body).toMatchObject({ responseCode: '12', iso20022: { status: 'RJCT', reason: 'ARDT' } })
  })

  it('reverses within 30 days of the transfer and refuses later with 12 (RJCT TM01), crediting nothing', async () => {
    const inWindow = await approvedTransfer(10)
    await ageTransfer(inWindow.requestId, 29.9)
    const reversed = await clients.switch.post<BankReply>(REVERSAL, reversalBody(inWindow.requestId))
    expect(reversed.status).toBe(200)

    const late = await approvedTransfer(10)
    await ageTransfer(late.requestId, 30.01)
    const refused = await clients.switch.post<BankReply>(REVERSAL, reversalBody(late.requestId))
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ responseCode: '12', iso20022: { status: 'RJCT', reason: 'TM01' } })
    expect(refused.body.responseMessage).toMatch(/30-day reversal window/)
    expect(await balanceOf(late.accountNumber)).toBe(100_000 - 1_000)
  })

  it("does not reverse another switch client's transfer (25), nor a live one from a test key", async () => {
    const { accountNumber, requestId } = await approvedTransfer(10)
    const other = await issueSwitchClient({ name: 'reversal other' })
    const otherClient = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: other.token, secret: other.secret },
    })
    const foreign = await otherClient.post<BankReply>(REVERSAL, reversalBody(requestId))
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    const test = testModeClients(api.url)
    const fromTest = await test.switch.post<BankReply>(REVERSAL, reversalBody(requestId))
    expect(fromTest.status).toBe(404)
    expect(fromTest.body.responseCode).toBe('25')
    expect(await balanceOf(accountNumber)).toBe(100_000 - 1_000)
  })

  it('refuses a malformed amount with 13 at amount', async () => {
    const reply = await clients.switch.post<BankReply>(REVERSAL, reversalBody('REQ-1', { amount: 1.234 }))
    expect(reply.status).toBe(400)
    expect(reply.body.responseCode).toBe('13')
    expect(reply.body.errors!.map((e) => e.path)).toEqual(['amount'])
  })
})
