import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

/** CONTRACT 24: the name enquiry, and the dormant account it (and a transfer) answers 06 for. */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const NAME = '/api/v1/transactions/name-enquiry'
const TRANSFER = '/api/v1/transactions/transfer'
type BankReply = Record<string, unknown> & { responseCode: string; errors?: { path: string }[] }
const enquiry = (accountNumber: unknown) => ({ requestId: `NE-${randomUUID()}`, accountNumber })

async function freshAccount(input: { name: string; status?: 'DORMANT' }) {
  const accountNumber = String(Math.floor(1e9 + Math.random() * 9e9)).slice(0, 10)
  await openAccount({ accountNumber, balanceKobo: 100_000, ...input })
  return accountNumber
}

describe('POST /api/v1/transactions/name-enquiry', () => {
  it("answers the holder's name, the currency and the status (00, ACSC)", async () => {
    const accountNumber = await freshAccount({ name: 'Ada Obi' })
    const body = enquiry(accountNumber)
    const reply = await clients.switch.post<BankReply>(NAME, body)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      responseCode: '00',
      iso20022: { status: 'ACSC', reason: null },
      requestId: body.requestId,
      accountNumber,
      accountName: 'Ada Obi',
      currency: 'NGN',
      accountStatus: 'ACTIVE',
    })
  })

  it('answers an unknown account with 14 (RJCT AC02)', async () => {
    const reply = await clients.switch.post<BankReply>(NAME, enquiry('0000000014'))
    expect(reply.status).toBe(404)
    expect(reply.body).toMatchObject({ responseCode: '14', iso20022: { status: 'RJCT', reason: 'AC02' } })
  })

  it('answers a dormant account with 06 (RJCT AC06) and no name; a transfer from it is refused with 06 and debits nothing', async () => {
    const accountNumber = await freshAccount({ name: 'Sleeping Holder', status: 'DORMANT' })
    const reply = await clients.switch.post<BankReply>(NAME, enquiry(accountNumber))
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({ responseCode: '06', iso20022: { status: 'RJCT', reason: 'AC06' } })
    expect(JSON.stringify(reply.body)).not.toContain('Sleeping Holder')

    const transfer = await clients.switch.post<BankReply>(
      TRANSFER,
      transferBody({ accountNumber, amount: 5 }),
    )
    expect(transfer.status).toBe(409)
    expect(transfer.body).toMatchObject({ responseCode: '06', iso20022: { status: 'RJCT', reason: 'AC06' } })
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(100_000)
  })

  it('keeps test mode and live apart: a test key does not find a live account', async () => {
    const accountNumber = await freshAccount({ name: 'Live Holder' })
    const test = testModeClients(api.url)
    const reply = await test.switch.post<BankReply>(NAME, enquiry(accountNumber))
    expect(reply.status).toBe(404)
    expect(reply.body.responseCode).toBe('14')
  })

  it('refuses a malformed body with 30 (FF01), naming each path', async () => {
    const reply = await clients.switch.post<BankReply>(NAME, {
      requestId: 'has spaces',
      accountNumber: '12345',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ responseCode: '30', iso20022: { status: 'RJCT', reason: 'FF01' } })
    expect(reply.body.errors!.map((e) => e.path).sort()).toEqual(['accountNumber', 'requestId'])
  })
})
