import { randomInt, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { transferBody as anyTransfer } from '../../support/transfers.ts'

/**
 * CONTRACT 24: NIP session ids on transfers and reversals, stored, queryable by the status query in
 * one read, and one request's only.
 */
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
type BankReply = Record<string, unknown> & {
  responseCode: string
  traceId: string
  timestamp: string
  errors?: { path: string }[]
}
const withoutOwn = ({ traceId: _t, timestamp: _s, queriedAt: _q, ...rest }: BankReply) => rest

/** Institution 000015, 21 Nov 2026 10:15:30, a random 12-digit serial. */
const sessionId = (stamp = '261121101530') => `000015${stamp}${String(randomInt(0, 1e12)).padStart(12, '0')}`

async function freshAccount(balanceKobo: number) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, name: 'Session account', balanceKobo })
  return accountNumber
}
/** The support's transfer body, with the sessionId these tests give it. */
const transferBody = (overrides: Record<string, unknown>) =>
  anyTransfer(overrides) as ReturnType<typeof anyTransfer> & { sessionId: string }
const balanceOf = async (accountNumber: string) => (await getAccount(accountNumber))!.balanceKobo
const reversalBody = (
  originalRequestId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> & { requestId: string; sessionId?: string } => ({
  requestId: `REV-${randomUUID()}`,
  stan: '000011',
  processingCode: '400000',
  originalRequestId,
  ...extra,
})

describe('POST /api/v1/transactions/transfer with a sessionId', () => {
  it('stores it with the transfer: the reply carries it, and a status query by it answers the first reply', async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 40, sessionId: sessionId() })
    const first = await clients.switch.post<BankReply>(TRANSFER, body)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ responseCode: '00', sessionId: body.sessionId })

    const query = await clients.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })
    expect(query.status).toBe(200)
    expect(withoutOwn(query.body)).toEqual(withoutOwn(first.body))
    expect(query.body.queriedAt).toEqual(expect.any(String))
    // The same request again is its first reply, not a reuse of the session id.
    const again = await clients.switch.post<BankReply>(TRANSFER, body)
    expect(withoutOwn(again.body)).toEqual(withoutOwn(first.body))
    expect(await balanceOf(accountNumber)).toBe(100_000 - 4_000)
  })

  it('refuses one sessionId under a second requestId with 26 (RJCT AM05), debiting nothing', async () => {
    const accountNumber = await freshAccount(100_000)
    const shared = sessionId()
    const first = await clients.switch.post<BankReply>(
      TRANSFER,
      transferBody({ accountNumber, amount: 10, sessionId: shared }),
    )
    expect(first.body.responseCode).toBe('00')
    const second = await clients.switch.post<BankReply>(
      TRANSFER,
      transferBody({ accountNumber, amount: 10, sessionId: shared }),
    )
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ responseCode: '26', iso20022: { status: 'RJCT', reason: 'AM05' } })
    const reversal = await clients.switch.post<BankReply>(
      REVERSAL,
      reversalBody(first.body.requestId as string, { sessionId: shared }),
    )
    expect(reversal.status).toBe(409)
    expect(reversal.body.responseCode).toBe('26')
    expect(await balanceOf(accountNumber)).toBe(100_000 - 1_000)
  })

  it('refuses a transfer whose sessionId a status query found never received: the final 25, nothing debited', async () => {
    const accountNumber = await freshAccount(100_000)
    const body = transferBody({ accountNumber, amount: 10, sessionId: sessionId() })
    const query = await clients.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })
    expect(query.status).toBe(404)
    expect(query.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    const late = await clients.switch.post<BankReply>(TRANSFER, body)
    expect(late.status).toBe(404)
    expect(late.body).toMatchObject({ responseCode: '25', iso20022: { status: 'RJCT', reason: 'AG09' } })
    expect(await balanceOf(accountNumber)).toBe(100_000)
    expect((await clients.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })).status).toBe(404)
  })

  it("does not answer another switch client's sessionId: 25", async () => {
    const body = transferBody({ amount: 1, sessionId: sessionId() })
    expect((await clients.switch.post<BankReply>(TRANSFER, body)).body.responseCode).toBe('00')
    const other = await issueSwitchClient({ name: 'session other' })
    const otherClient = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: other.token, secret: other.secret },
    })
    const query = await otherClient.post<BankReply>(STATUS, { sessionId: body.sessionId })
    expect(query.status).toBe(404)
    expect(query.body.responseCode).toBe('25')
    expect((await clients.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })).status).toBe(200)
  })

  it('keeps test mode and live apart: a test key does not find a live sessionId', async () => {
    const body = transferBody({ amount: 1, sessionId: sessionId() })
    expect((await clients.switch.post(TRANSFER, body)).status).toBe(200)
    const test = testModeClients(api.url)
    const query = await test.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })
    expect(query.status).toBe(404)
    expect(query.body.responseCode).toBe('25')
    expect((await clients.switch.post(STATUS, { sessionId: body.sessionId })).status).toBe(200)
  })

  it('refuses a sessionId not of its form, or whose time is not a real one, with 30 naming sessionId', async () => {
    for (const bad of [
      '12345',
      `000015261121101530${'0'.repeat(11)}`, // 29 digits
      sessionId('261321101530'), // month 13
      sessionId('260230101530'), // 30 February
      sessionId('261121241530'), // 24 h
      sessionId('261121106030'), // minute 60
    ]) {
      const reply = await clients.switch.post<BankReply>(TRANSFER, transferBody({ sessionId: bad }))
      expect(reply.status, bad).toBe(400)
      expect(reply.body.responseCode).toBe('30')
      expect(reply.body.errors!.map((e) => e.path)).toEqual(['sessionId'])
    }
    const leap = await clients.switch.post<BankReply>(
      TRANSFER,
      transferBody({ amount: 1, sessionId: sessionId('280229235959') }),
    )
    expect(leap.status).toBe(200)
  })
})

describe('POST /api/v1/transactions/reversal with a sessionId', () => {
  it('stores it with the reversal, queryable by it', async () => {
    const accountNumber = await freshAccount(100_000)
    const transfer = transferBody({ accountNumber, amount: 30 })
    expect((await clients.switch.post<BankReply>(TRANSFER, transfer)).body.responseCode).toBe('00')
    const body = reversalBody(transfer.requestId, { sessionId: sessionId() })
    const reversed = await clients.switch.post<BankReply>(REVERSAL, body)
    expect(reversed.status).toBe(200)
    expect(reversed.body).toMatchObject({ responseCode: '00', status: 'REVERSED', sessionId: body.sessionId })
    const query = await clients.switch.post<BankReply>(STATUS, { sessionId: body.sessionId })
    expect(withoutOwn(query.body)).toEqual(withoutOwn(reversed.body))
    expect(await balanceOf(accountNumber)).toBe(100_000)
  })

  it('refuses a malformed sessionId with 30 naming it', async () => {
    const reply = await clients.switch.post<BankReply>(REVERSAL, reversalBody('REQ-x', { sessionId: 'x' }))
    expect(reply.status).toBe(400)
    expect(reply.body.errors!.map((e) => e.path)).toEqual(['sessionId'])
  })
})

describe('POST /api/v1/transactions/status-query by sessionId', () => {
  it('takes requestId or sessionId, not both, and a sessionId of its form', async () => {
    const both = await clients.switch.post<BankReply>(STATUS, { requestId: 'REQ-1', sessionId: sessionId() })
    expect(both.status).toBe(400)
    expect(both.body.errors!.map((e) => e.path)).toEqual(['sessionId'])
    const bad = await clients.switch.post<BankReply>(STATUS, { sessionId: '1'.repeat(31) })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ responseCode: '30', iso20022: { status: 'RJCT', reason: 'FF01' } })
    expect(bad.body.errors!.map((e) => e.path)).toEqual(['sessionId'])
  })
})
