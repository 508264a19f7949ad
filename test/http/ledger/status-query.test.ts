import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

/** CONTRACT 24: the transaction status query, and the ISO 20022 pair beside every code. */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const TRANSFER = '/api/v1/transactions/transfer'
const REVERSAL = '/api/v1/transactions/reversal'
const STATUS = '/api/v1/transactions/status-query'
const ISO_UTC = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
const id = (prefix = 'REQ') => `${prefix}-${randomUUID()}`

async function freshAccount(balanceKobo: number) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, name: 'Status account', balanceKobo })
  return accountNumber
}
const balanceOf = async (accountNumber: string) => (await getAccount(accountNumber))!.balanceKobo
type BankReply = Record<string, unknown> & { responseCode: string; traceId: string; timestamp: string }
const withoutOwn = ({ traceId: _t, timestamp: _s, queriedAt: _q, ...rest }: BankReply) => rest

describe('POST /api/v1/transactions/status-query', () => {
  it("answers a transfer's first reply, every field unchanged but traceId and timestamp, plus queriedAt", async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 250 })
    const first = await clients.switch.post<BankReply>(TRANSFER, body)
    expect(first.status).toBe(200)
    expect(first.body.iso20022).toEqual({ status: 'ACSC', reason: null })

    const query = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(200)
    expect(withoutOwn(query.body)).toEqual(withoutOwn(first.body))
    expect(query.body.queriedAt).toEqual(ISO_UTC)
    expect(query.body.traceId).not.toBe(first.body.traceId)
    expect(await balanceOf(accountNumber)).toBe(100_000 - 25_000)
  })

  it("answers a declined (51) transfer's and a reversal's first reply, with their ISO pairs", async () => {
    const accountNumber = await freshAccount(5_000)
    const declined = transferBody({ accountNumber, amount: 100 })
    const first = await clients.switch.post<BankReply>(TRANSFER, declined)
    expect(first.body).toMatchObject({ responseCode: '51', iso20022: { status: 'RJCT', reason: 'AM04' } })
    const query = await clients.switch.post<BankReply>(STATUS, { requestId: declined.requestId })
    expect(query.status).toBe(200)
    expect(withoutOwn(query.body)).toEqual(withoutOwn(first.body))

    const approved = transferBody({ accountNumber, amount: 20 })
    expect((await clients.switch.post(TRANSFER, approved)).status).toBe(200)
    const reversal = {
      requestId: id('REV'),
      stan: '000009',
      processingCode: '400000',
      originalRequestId: approved.requestId,
    }
    const reversed = await clients.switch.post<BankReply>(REVERSAL, reversal)
    expect(reversed.body).toMatchObject({ responseCode: '00', iso20022: { status: 'ACSC', reason: null } })
    const reversalQuery = await clients.switch.post<BankReply>(STATUS, { requestId: reversal.requestId })
    expect(withoutOwn(reversalQuery.body)).toEqual(withoutOwn(reversed.body))

    // A second reversal of the same transfer is 12 with ARDT (a declined one's 12 is FF12).
    const again = await clients.switch.post<BankReply>(REVERSAL, { ...reversal, requestId: id('REV') })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ responseCode: '12', iso20022: { status: 'RJCT', reason: 'ARDT' } })
    const ofDeclined = await clients.switch.post<BankReply>(REVERSAL, {
      ...reversal,
      requestId: id('REV'),
      originalRequestId: declined.requestId,
    })
    expect(ofDeclined.body).toMatchObject({
      responseCode: '12',
      iso20022: { status: 'RJCT', reason: 'FF12' },
    })
  })

  it('answers a requestId never received with a final 25 (RJCT AG09): the original arriving later is refused and not debited', async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 300 })
    const query = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(404)
    expect(query.body).toMatchObject({
      responseCode: '25',
      responseStatus: 'FAILED',
      iso20022: { status: 'RJCT', reason: 'AG09' },
    })

    // The original, within the signature window: the same 25, nothing debited; and again, the same.
    for (let attempt = 0; attempt < 2; attempt++) {
      const late = await clients.switch.post<BankReply>(TRANSFER, body)
      expect(late.status).toBe(404)
      expect(late.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    }
    expect(await balanceOf(accountNumber)).toBe(100_000)
    const reversal = await clients.switch.post<BankReply>(REVERSAL, {
      requestId: body.requestId,
      stan: '000010',
      processingCode: '400000',
      originalRequestId: id(),
    })
    expect(reversal.body).toMatchObject({ responseCode: '25' })
    const queriedAgain = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(queriedAgain.status).toBe(404)
    expect(queriedAgain.body.responseMessage).toBe(query.body.responseMessage)
  })

  it("does not answer another switch client's transfer: 25, and that client's transfer is unharmed", async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 10 })
    const first = await clients.switch.post<BankReply>(TRANSFER, body)
    expect(first.body.responseCode).toBe('00')
    const other = await issueSwitchClient({ name: 'status query other' })
    const otherClient = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: other.token, secret: other.secret },
    })
    const query = await otherClient.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(404)
    expect(query.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    // The owner still reads its own first reply.
    const own = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(withoutOwn(own.body)).toEqual(withoutOwn(first.body))
  })

  it('keeps test mode and live apart: a test key does not find a live transfer', async () => {
    const body = transferBody({ amount: 1 })
    expect((await clients.switch.post(TRANSFER, body)).status).toBe(200)
    const test = testModeClients(api.url)
    const query = await test.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(404)
    expect(query.body.responseCode).toBe('25')
    const live = await clients.switch.post<BankReply>(STATUS, { requestId: body.requestId })
    expect(live.status).toBe(200)
  })

  it('refuses a malformed body with 30 (FF01), naming the path', async () => {
    const reply = await clients.switch.post<BankReply & { errors: { path: string }[] }>(STATUS, {
      requestId: 'has spaces',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ responseCode: '30', iso20022: { status: 'RJCT', reason: 'FF01' } })
    expect(reply.body.errors.map((e) => e.path)).toEqual(['requestId'])
    const empty = await clients.switch.post<BankReply & { errors: { path: string }[] }>(STATUS, {})
    expect(empty.status).toBe(400)
    expect(empty.body.errors.map((e) => e.path)).toEqual(['requestId'])
  })
})
