import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/auth/credentials.ts'
import { ApiClient } from '#lib/client/api-client.ts'
import { addMerchant, getAccount, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../support/api.ts'
import { type DevClients, devClients } from '../support/clients.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

/** A merchant of its own, so its history holds exactly what this test did. */
async function freshMerchant(merchantId: string) {
  await addMerchant({ merchantId, name: `Concurrency ${merchantId}` })
  const { token } = await issueMerchantToken({ merchantId })
  return new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': merchantId } })
}

const transfer = (accountNumber: string, merchantId: string, requestId = `REQ-${randomUUID()}`) => ({
  requestId,
  stan: '100001',
  processingCode: '400000',
  merchantId,
  merchantReference: `ORD-${randomUUID()}`,
  accountNumber,
  amount: 100,
  currency: 'NGN',
  productCode: 'BILLS',
})

describe('Area B under concurrency', () => {
  it('gives exactly 100 approvals and 100 declines for 200 parallel transfers of 100.00 from 10,000.00', {
    timeout: 180_000,
  }, async () => {
    const accountNumber = '7000000001'
    await openAccount({ accountNumber, name: 'Concurrency account', balanceKobo: 1_000_000 })
    const merchant = await freshMerchant('MRC-CONC-1')

    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        clients.switch.post<{ responseCode: string }>(
          '/api/v1/transactions/transfer',
          transfer(accountNumber, 'MRC-CONC-1'),
        ),
      ),
    )
    expect(replies.map((r) => r.status).filter((s) => s !== 200)).toEqual([])
    const codes = replies.map((r) => r.body.responseCode)
    expect(codes.filter((c) => c === '00')).toHaveLength(100)
    expect(codes.filter((c) => c === '51')).toHaveLength(100)
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(0)

    const page = async (status: string) =>
      (
        await merchant.get<{
          data: { content: { status: string; amount: number }[]; page: { totalElements: number } }
        }>(`/api/v1/merchant/transactions?status=${status}&size=200`)
      ).body.data
    const successful = await page('SUCCESSFUL')
    expect(successful.page.totalElements).toBe(100)
    expect(successful.content).toHaveLength(100)
    expect(successful.content.every((t) => t.status === 'SUCCESSFUL' && t.amount === 100)).toBe(true)
    expect((await page('FAILED')).page.totalElements).toBe(100)
    expect((await page('ALL')).page.totalElements).toBe(200)
  })

  it('credits a transfer once when 20 reversals of it arrive at the same time', {
    timeout: 120_000,
  }, async () => {
    const accountNumber = '7000000002'
    await openAccount({ accountNumber, name: 'Reversal account', balanceKobo: 50_000 })
    await freshMerchant('MRC-CONC-2')
    const original = transfer(accountNumber, 'MRC-CONC-2')
    expect((await clients.switch.post('/api/v1/transactions/transfer', original)).body).toMatchObject({
      responseCode: '00',
    })
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(40_000)

    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        clients.switch.post<{ responseCode: string }>('/api/v1/transactions/reversal', {
          requestId: `REV-${randomUUID()}`,
          stan: '100002',
          processingCode: '400000',
          originalRequestId: original.requestId,
        }),
      ),
    )
    expect(replies.filter((r) => r.status === 200 && r.body.responseCode === '00')).toHaveLength(1)
    expect(replies.filter((r) => r.status === 409 && r.body.responseCode === '12')).toHaveLength(19)
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(50_000)
  })

  it('gives every one of 20 simultaneous copies of one reversal the same single credit', {
    timeout: 120_000,
  }, async () => {
    const accountNumber = '7000000003'
    await openAccount({ accountNumber, name: 'Reversal account', balanceKobo: 50_000 })
    await freshMerchant('MRC-CONC-3')
    const original = transfer(accountNumber, 'MRC-CONC-3')
    await clients.switch.post('/api/v1/transactions/transfer', original)
    const reversal = {
      requestId: `REV-${randomUUID()}`,
      stan: '100003',
      processingCode: '400000',
      originalRequestId: original.requestId,
    }
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        clients.switch.post<{ responseCode: string }>('/api/v1/transactions/reversal', reversal),
      ),
    )
    expect(replies.map((r) => `${r.status} ${r.body.responseCode}`)).toEqual(Array(20).fill('200 00'))
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(50_000)
  })

  it('keeps the money and the numbering exact when four processes transfer for one merchant at once', {
    timeout: 180_000,
  }, async () => {
    const accountNumber = '7000000004'
    await openAccount({ accountNumber, name: 'Multi-process account', balanceKobo: 300_000 })
    const merchant = await freshMerchant('MRC-CONC-4')
    const run = promisify(execFile)
    const env = { ...process.env, TABLE_NAME: api.tableName, DYNAMODB_ENDPOINT: api.dynamoEndpoint }
    const outputs = await Promise.all(
      [1, 2, 3, 4].map((p) =>
        run(
          'node_modules/.bin/tsx',
          ['test/http/ledger-concurrency-worker.ts', 'MRC-CONC-4', accountNumber, '25', `MULTI-${p}`],
          { env },
        ),
      ),
    )
    const codes = outputs.flatMap((o) => JSON.parse(o.stdout) as string[])
    // 3,000.00 pays 60 transfers of 50.00; the other 40 are declined.
    expect(codes.filter((c) => c === '00')).toHaveLength(60)
    expect(codes.filter((c) => c === '51')).toHaveLength(40)
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(0)
    // Dense numbering: the totals and the key-range pages agree, item for item.
    const listed: string[] = []
    for (let page = 1; page <= 2; page++) {
      const reply = await merchant.get<{
        data: { content: { merchantReference: string }[]; page: { totalElements: number } }
      }>(`/api/v1/merchant/transactions?size=50&page=${page}`)
      expect(reply.body.data.page.totalElements).toBe(100)
      listed.push(...reply.body.data.content.map((t) => t.merchantReference))
    }
    expect(new Set(listed).size).toBe(100)
  })
})
