import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMerchant, getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const TRANSFER = '/api/v1/transactions/transfer'
const REVERSAL = '/api/v1/transactions/reversal'
const BALANCE = '/api/v1/transactions/balance-enquiry'

const id = (prefix = 'REQ') => `${prefix}-${randomUUID()}`
const TRACE = expect.stringMatching(/^[0-9a-f-]{36}$/)
const ISO_UTC = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
const LOCAL = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)

/** A fresh account so each test knows its balance. */
async function freshAccount(balanceKobo: number) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, name: 'Test account', balanceKobo })
  return accountNumber
}
const balanceOf = async (accountNumber: string) => (await getAccount(accountNumber))!.balanceKobo

describe('POST /api/v1/transactions/balance-enquiry', () => {
  it('replies the available balance of a seeded account', async () => {
    const body = { requestId: id(), stan: '000001', processingCode: '310000', accountNumber: '0987654321' }
    const reply = await clients.switch.post(BALANCE, body)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      responseCode: '00',
      responseMessage: 'Approved',
      responseStatus: 'SUCCESS',
      iso20022: { status: 'ACSC', reason: null },
      requestId: body.requestId,
      stan: '000001',
      processingCode: '310000',
      accountNumber: '0987654321',
      availableBalance: 500,
      currency: 'NGN',
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
  })

  it('answers 14 for an unknown account', async () => {
    const reply = await clients.switch.post(BALANCE, {
      requestId: id(),
      stan: '000002',
      processingCode: '310000',
      accountNumber: '5555555555',
    })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({
      responseCode: '14',
      responseMessage: 'No account has the number 5555555555',
      responseStatus: 'FAILED',
      iso20022: { status: 'RJCT', reason: 'AC02' },
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
  })

  it('answers 30 listing every problem of a malformed body', async () => {
    const reply = await clients.switch.post(BALANCE, {
      requestId: 'has spaces',
      stan: '12',
      processingCode: '31000x',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ responseCode: '30', responseStatus: 'FAILED' })
    expect((reply.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      'accountNumber',
      'processingCode',
      'requestId',
      'stan',
    ])
  })
})

describe('POST /api/v1/transactions/transfer', () => {
  it('debits the account and replies 00 with a TNX providerReference', async () => {
    const account = await freshAccount(1_000_000)
    const body = transferBody({ accountNumber: account, amount: 2500.75, narration: 'Airtime top-up' })
    const reply = await clients.switch.post(TRANSFER, body)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      responseCode: '00',
      responseMessage: 'Approved',
      responseStatus: 'SUCCESS',
      iso20022: { status: 'ACSC', reason: null },
      requestId: body.requestId,
      stan: '123456',
      processingCode: '400000',
      merchantId: 'MRC0001',
      merchantReference: body.merchantReference,
      accountNumber: account,
      amount: 2500.75,
      currency: 'NGN',
      productCode: 'AIRTIME',
      narration: 'Airtime top-up',
      providerReference: expect.stringMatching(/^TNX\d{20}$/),
      status: 'SUCCESSFUL',
      completedAt: LOCAL,
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
    expect(await balanceOf(account)).toBe(1_000_000 - 250_075)
  })

  it('declines with 51 at HTTP 200, records it as FAILED and moves no money', async () => {
    const account = await freshAccount(10_000)
    const body = transferBody({ accountNumber: account, amount: 100.01 })
    const reply = await clients.switch.post(TRANSFER, body)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      responseCode: '51',
      responseMessage: 'Insufficient funds',
      responseStatus: 'FAILED',
      status: 'FAILED',
      amount: 100.01,
      providerReference: expect.stringMatching(/^TNX\d+$/),
    })
    expect(await balanceOf(account)).toBe(10_000)
    // Recorded: the same requestId gives the same decline even once the money is there.
    await clients.switch.post(TRANSFER, transferBody({ accountNumber: account, amount: 0.01 }))
    const again = await clients.switch.post(TRANSFER, body)
    expect(again.body).toMatchObject({
      responseCode: '51',
      providerReference: (reply.body as { providerReference: string }).providerReference,
    })
  })

  it('debits exactly the whole balance (balance >= amount is approved)', async () => {
    const account = await freshAccount(12_345)
    const reply = await clients.switch.post(
      TRANSFER,
      transferBody({ accountNumber: account, amount: 123.45 }),
    )
    expect(reply.body).toMatchObject({ responseCode: '00' })
    expect(await balanceOf(account)).toBe(0)
  })

  it('answers 14 for an unknown account and records nothing', async () => {
    const reply = await clients.switch.post(TRANSFER, transferBody({ accountNumber: '5555555555' }))
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({
      responseCode: '14',
      responseMessage: 'No account has the number 5555555555',
      responseStatus: 'FAILED',
      iso20022: { status: 'RJCT', reason: 'AC02' },
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
  })

  it('answers 03 for a merchant that does not exist', async () => {
    const reply = await clients.switch.post(TRANSFER, transferBody({ merchantId: 'MRC9999' }))
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({
      responseCode: '03',
      responseMessage: 'No active merchant has the id MRC9999',
    })
  })

  it('returns the first reply for a repeated requestId and debits once', async () => {
    const account = await freshAccount(500_000)
    const body = transferBody({ accountNumber: account, amount: 1000 })
    const first = await clients.switch.post(TRANSFER, body)
    // Same request, different key order and spacing: still the same request.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2)
    const second = await clients.switch.post(TRANSFER, reordered)
    const strip = (b: unknown) => ({ ...(b as object), traceId: undefined, timestamp: undefined })
    expect(second.status).toBe(200)
    expect(strip(second.body)).toEqual(strip(first.body))
    expect(await balanceOf(account)).toBe(400_000)
  })

  it('answers 409 with 26 when a requestId comes back with a different body, and moves no money', async () => {
    const account = await freshAccount(500_000)
    const body = transferBody({ accountNumber: account, amount: 10 })
    await clients.switch.post(TRANSFER, body)
    const reply = await clients.switch.post(TRANSFER, { ...body, amount: 20 })
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({
      responseCode: '26',
      responseStatus: 'FAILED',
      responseMessage: expect.stringContaining(`requestId ${body.requestId} was already used`),
    })
    expect(await balanceOf(account)).toBe(499_000)
  })

  it.each([
    ['more than 2 decimals', 10.005],
    ['zero', 0],
    ['negative', -5],
    ['a string', '100.00'],
    ['missing', undefined],
    ['too large', 1e13],
  ])('refuses an amount that is %s with 400 and code 13, writing nothing', async (_, amount) => {
    const account = await freshAccount(1_000_000)
    const body = transferBody({ accountNumber: account, amount })
    const reply = await clients.switch.post(TRANSFER, body)
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      responseCode: '13',
      responseStatus: 'FAILED',
      errors: [{ path: 'amount', code: 'FIELD_RULE', message: expect.stringContaining('amount') }],
    })
    expect(await balanceOf(account)).toBe(1_000_000)
    // Nothing was recorded under the requestId: a corrected request with it goes through.
    const fixed = await clients.switch.post(TRANSFER, { ...body, amount: 1 })
    expect(fixed.body).toMatchObject({ responseCode: '00' })
  })

  it('refuses a currency other than NGN with 30', async () => {
    const reply = await clients.switch.post(TRANSFER, transferBody({ currency: 'USD' }))
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      responseCode: '30',
      errors: [{ path: 'currency', message: 'currency must be "NGN"' }],
    })
  })

  it('refuses a body that is not a JSON object with 30', async () => {
    for (const body of ['[]', '"x"', '42', 'null']) {
      const reply = await clients.switch.post(TRANSFER, body)
      expect(reply.status, body).toBe(400)
      expect(reply.body, body).toMatchObject({ responseCode: '30' })
    }
  })
})

describe('POST /api/v1/transactions/reversal', () => {
  async function transferred(amount = 250) {
    const account = await freshAccount(1_000_000)
    const body = transferBody({ accountNumber: account, amount })
    const reply = await clients.switch.post<{ providerReference: string }>(TRANSFER, body)
    expect(reply.body).toMatchObject({ responseCode: '00' })
    return { account, body, providerReference: reply.body.providerReference }
  }
  const reversalBody = (originalRequestId: string, requestId = id('REV')) => ({
    requestId,
    stan: '654321',
    processingCode: '400000',
    originalRequestId,
  })

  it('credits the transfer back and replies 00 with status REVERSED', async () => {
    const { account, body, providerReference } = await transferred(250)
    expect(await balanceOf(account)).toBe(975_000)
    const rev = reversalBody(body.requestId)
    const reply = await clients.switch.post(REVERSAL, rev)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      responseCode: '00',
      responseMessage: 'Approved',
      responseStatus: 'SUCCESS',
      iso20022: { status: 'ACSC', reason: null },
      requestId: rev.requestId,
      stan: '654321',
      processingCode: '400000',
      originalRequestId: body.requestId,
      providerReference,
      accountNumber: account,
      amount: 250,
      currency: 'NGN',
      status: 'REVERSED',
      reversedAt: LOCAL,
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
    expect(await balanceOf(account)).toBe(1_000_000)
  })

  it('makes no second credit: a repeated reversal gets its first reply, another reversal 409 with 12', async () => {
    const { account, body } = await transferred(100)
    const rev = reversalBody(body.requestId)
    const first = await clients.switch.post(REVERSAL, rev)
    const repeated = await clients.switch.post(REVERSAL, rev)
    expect(repeated.status).toBe(200)
    expect({ ...(repeated.body as object), traceId: 0, timestamp: 0 }).toEqual({
      ...(first.body as object),
      traceId: 0,
      timestamp: 0,
    })
    const another = await clients.switch.post(REVERSAL, reversalBody(body.requestId))
    expect(another.status).toBe(409)
    expect(another.body).toMatchObject({
      responseCode: '12',
      responseMessage: expect.stringContaining(`already reversed by request ${rev.requestId}`),
    })
    expect(await balanceOf(account)).toBe(1_000_000)
    // The original's requestId still returns its own first reply (SUCCESSFUL), and moves nothing.
    const original = await clients.switch.post(TRANSFER, body)
    expect(original.body).toMatchObject({ responseCode: '00', status: 'SUCCESSFUL' })
    expect(await balanceOf(account)).toBe(1_000_000)
  })

  it('answers 25 when the original request is unknown', async () => {
    const reply = await clients.switch.post(REVERSAL, reversalBody('REQ-NEVER-SENT'))
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({
      responseCode: '25',
      responseMessage: 'No transfer with requestId REQ-NEVER-SENT was found to reverse',
      responseStatus: 'FAILED',
      iso20022: { status: 'RJCT', reason: 'AG09' },
      traceId: TRACE,
      timestamp: ISO_UTC,
    })
  })

  it('answers 409 with 12 for a declined original: it moved no money', async () => {
    const account = await freshAccount(100)
    const body = transferBody({ accountNumber: account, amount: 5 })
    expect((await clients.switch.post(TRANSFER, body)).body).toMatchObject({ responseCode: '51' })
    const reply = await clients.switch.post(REVERSAL, reversalBody(body.requestId))
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({
      responseCode: '12',
      responseMessage: expect.stringContaining('declined'),
    })
    expect(await balanceOf(account)).toBe(100)
  })

  it('answers 25 for a reversal whose originalRequestId names a reversal', async () => {
    const { body } = await transferred(1)
    const rev = reversalBody(body.requestId)
    await clients.switch.post(REVERSAL, rev)
    const reply = await clients.switch.post(REVERSAL, reversalBody(rev.requestId))
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ responseCode: '25' })
  })
})

describe('merchants', () => {
  it('pays a merchant registered through the repository', async () => {
    await addMerchant({ merchantId: 'MRC-LEDGER-T', name: 'Ledger test merchant' })
    const reply = await clients.switch.post(TRANSFER, transferBody({ merchantId: 'MRC-LEDGER-T', amount: 1 }))
    expect(reply.body).toMatchObject({ responseCode: '00', merchantId: 'MRC-LEDGER-T' })
  })
})
