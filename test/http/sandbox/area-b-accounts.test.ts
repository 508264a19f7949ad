import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import { getAccount, getBankRequest } from '#lib/ledger/repository.ts'
import { inMode } from '#lib/platform/mode.ts'
import { MAGIC_ACCOUNTS } from '#lib/sandbox/magic.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV_TEST,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

/**
 * CONTRACT 24, point 5: the sandbox has an account for each response code an account can cause, and
 * one whose transfer commits and then never replies in time, so a switch rehearses every branch of
 * its code, the status query included. Each account through HTTP with the test switch credential,
 * and each listed in docs/sandbox.md.
 */
let api: TestApi
let live: DevClients
let test: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
})
afterAll(() => api?.close())

const TRANSFER = '/api/v1/transactions/transfer'
const BALANCE = '/api/v1/transactions/balance-enquiry'
const NAME = '/api/v1/transactions/name-enquiry'
const STATUS = '/api/v1/transactions/status-query'
const enquiry = (accountNumber: string) => ({
  requestId: `REQ-${crypto.randomUUID()}`,
  stan: '000001',
  processingCode: '310000',
  accountNumber,
})
const testAccount = (accountNumber: string) => inMode('test', () => getAccount(accountNumber))

/** What a transfer from each account answers: HTTP status, responseCode, ISO 20022 pair. */
const TRANSFER_ANSWERS: [string, number, string, string, string | null][] = [
  [MAGIC_ACCOUNTS.approves, 200, '00', 'ACSC', null],
  [MAGIC_ACCOUNTS.dormant, 409, '06', 'RJCT', 'AC06'],
  [MAGIC_ACCOUNTS.unknown, 404, '14', 'RJCT', 'AC02'],
  [MAGIC_ACCOUNTS.insufficientFunds, 200, '51', 'RJCT', 'AM04'],
  [MAGIC_ACCOUNTS.issuerUnavailable, 503, '91', 'RJCT', 'DS0B'],
  [MAGIC_ACCOUNTS.systemMalfunction, 503, '96', 'RJCT', 'FF10'],
]

describe('Area B sandbox accounts, one per response code an account causes', () => {
  it.each(TRANSFER_ANSWERS)(
    'a transfer from %s answers %i, code %s (%s %s)',
    async (account, http, code, status, reason) => {
      const reply: any = await test.switch.post(
        TRANSFER,
        transferBody({ accountNumber: account, amount: 10 }),
      )
      expect(reply.status).toBe(http)
      expect(reply.body).toMatchObject({ responseCode: code, iso20022: { status, reason } })
    },
  )

  it('1000000014 is never opened: 14 (RJCT AC02) to the balance and name enquiries and the transfer, nothing recorded', async () => {
    const body = transferBody({ accountNumber: MAGIC_ACCOUNTS.unknown, amount: 1 })
    expect(((await test.switch.post(TRANSFER, body)) as any).body.responseCode).toBe('14')
    const balance: any = await test.switch.post(BALANCE, enquiry(MAGIC_ACCOUNTS.unknown))
    expect([balance.status, balance.body.responseCode]).toEqual([404, '14'])
    const named: any = await test.switch.post(NAME, {
      requestId: `NE-${crypto.randomUUID()}`,
      accountNumber: MAGIC_ACCOUNTS.unknown,
    })
    expect([named.status, named.body.responseCode]).toEqual([404, '14'])
    expect(await testAccount(MAGIC_ACCOUNTS.unknown)).toBeUndefined()
    expect(
      await inMode('test', () => getBankRequest(DEV_TEST.switch.clientId, body.requestId)),
    ).toBeUndefined()
  })

  it('1000000096 always answers 96 with Retry-After, a retry with the same requestId too; nothing debited or recorded', async () => {
    const body = transferBody({ accountNumber: MAGIC_ACCOUNTS.systemMalfunction, amount: 10 })
    for (let i = 0; i < 2; i++) {
      const reply: any = await test.switch.post(TRANSFER, body)
      expect(reply.status).toBe(503)
      expect(reply.headers.get('retry-after')).toBe('1')
      expect(reply.body).toMatchObject({ responseCode: '96', responseStatus: 'FAILED' })
      expect(reply.body.responseMessage).toMatch(/nothing was debited, retry with the same requestId/)
    }
    const balance: any = await test.switch.post(BALANCE, enquiry(MAGIC_ACCOUNTS.systemMalfunction))
    expect([balance.status, balance.body.responseCode]).toEqual([503, '96'])
    expect(
      await inMode('test', () => getBankRequest(DEV_TEST.switch.clientId, body.requestId)),
    ).toBeUndefined()
  })

  it('1000000068 commits, then gives no reply in time: the status query finds the transfer, debited once, and a retry replays at once', async () => {
    const before = (await testAccount(MAGIC_ACCOUNTS.commitsThenTimesOut))?.balanceKobo ?? 100_000_000
    const body = transferBody({ accountNumber: MAGIC_ACCOUNTS.commitsThenTimesOut, amount: 68 })
    const raw = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: DEV_TEST.switch.token, secret: DEV_TEST.switch.secret },
    })
    const timeout = AbortSignal.timeout(3_000)
    const sent = Date.now()
    // The switch's client timeout: no reply comes before it, though the transfer has committed.
    await expect(raw.request('POST', TRANSFER, body, {}, timeout)).rejects.toThrow()
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2_900)

    const query: any = await test.switch.post(STATUS, { requestId: body.requestId })
    expect(query.status).toBe(200)
    expect(query.body).toMatchObject({
      requestId: body.requestId,
      responseCode: '00',
      status: 'SUCCESSFUL',
      accountNumber: MAGIC_ACCOUNTS.commitsThenTimesOut,
      amount: 68,
      iso20022: { status: 'ACSC', reason: null },
    })
    expect((await testAccount(MAGIC_ACCOUNTS.commitsThenTimesOut))?.balanceKobo).toBe(before - 6_800)

    // A switch that retries instead of querying gets the first reply back at once, and no second debit.
    const retried = Date.now()
    const again: any = await test.switch.post(TRANSFER, body)
    expect(Date.now() - retried).toBeLessThan(2_000)
    expect(again.body).toMatchObject({ responseCode: '00', providerReference: query.body.providerReference })
    expect((await testAccount(MAGIC_ACCOUNTS.commitsThenTimesOut))?.balanceKobo).toBe(before - 6_800)
  })

  it('the new sandbox account numbers are ordinary in live mode (no such account: 14)', async () => {
    for (const accountNumber of [MAGIC_ACCOUNTS.systemMalfunction, MAGIC_ACCOUNTS.commitsThenTimesOut]) {
      const reply: any = await live.switch.post(TRANSFER, transferBody({ accountNumber }))
      expect([reply.status, reply.body.responseCode]).toEqual([404, '14'])
    }
  })

  it('docs/sandbox.md lists every sandbox account', () => {
    const page = readFileSync(new URL('../../../docs/sandbox.md', import.meta.url), 'utf8')
    for (const accountNumber of Object.values(MAGIC_ACCOUNTS))
      expect(page).toContain(`account \`${accountNumber}\``)
  })
})
