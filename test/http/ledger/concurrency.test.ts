import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import {
  addMerchant,
  getAccount,
  getBankRequest,
  openAccount,
  type TransferRecord,
} from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { ascending, range, storedHistory } from '../../support/history.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

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

/** A transfer of 100.00 from the account to the merchant. */
const transfer = (accountNumber: string, merchantId: string) =>
  transferBody({ accountNumber, merchantId, amount: 100 })

describe('Area B under concurrency', () => {
  it('gives exactly 100 approvals and 100 declines for 200 parallel transfers of 100.00 from 10,000.00', {
    timeout: 180_000,
  }, async () => {
    const accountNumber = '7000000001'
    await openAccount({ accountNumber, name: 'Concurrency account', balanceKobo: 1_000_000 })
    const merchant = await freshMerchant('MRC-CONC-1')

    const replies = await Promise.all(
      Array.from({ length: 200 }, async () => {
        // A busy account past the retry budget answers 96 with nothing recorded: retried with the same
        // requestId, as a switch does, so each request's final answer is counted.
        const body = transfer(accountNumber, 'MRC-CONC-1')
        for (let attempt = 0; ; attempt++) {
          const reply = await clients.switch.post<{ responseCode: string }>(
            '/api/v1/transactions/transfer',
            body,
          )
          if (reply.body.responseCode !== '96' || attempt === 4) return reply
        }
      }),
    )
    expect(
      replies
        .filter((r) => r.status !== 200)
        .map((r) => JSON.stringify(r.body))
        .slice(0, 3),
    ).toEqual([])
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
    // The history indexer counted the reversal once, on its own day (today, as the transfer): the
    // transfer's count stays as it was (CONTRACT 20: a past day never changes).
    await api.settled()
    const [day] = (
      await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
          ExpressionAttributeValues: { ':pk': keys.historyHead('MRC-CONC-2').pk, ':day': 'DAY#' },
          ConsistentRead: true,
        }),
      )
    ).Items!
    expect(day).toMatchObject({
      successfulCount: 1,
      successfulKobo: 10_000,
      reversedCount: 1,
      reversedKobo: 10_000,
    })
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
          ['test/http/ledger/concurrency-worker.ts', 'MRC-CONC-4', accountNumber, '25', `MULTI-${p}`],
          { env },
        ),
      ),
    )
    const codes = outputs.flatMap((o) => JSON.parse(o.stdout) as string[])
    // 3,000.00 pays 60 transfers of 50.00; the other 40 are declined.
    expect(codes.filter((c) => c === '00')).toHaveLength(60)
    expect(codes.filter((c) => c === '51')).toHaveLength(40)
    expect((await getAccount(accountNumber))!.balanceKobo).toBe(0)
    await api.settled()
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

  it('numbers every transaction exactly once and keeps the history equal to the ledger after a four-process burst for one merchant', {
    timeout: 180_000,
  }, async () => {
    // Each process debits its own account (750.00 pays 15 of its 25 transfers of 50.00): only the
    // merchant is shared, as when many payers pay one merchant at once.
    const merchantId = 'MRC-CONC-5'
    const accountOf = (p: number) => `700000005${p}`
    for (const p of [1, 2, 3, 4])
      await openAccount({ accountNumber: accountOf(p), name: `History account ${p}`, balanceKobo: 75_000 })
    await freshMerchant(merchantId)
    const run = promisify(execFile)
    const env = { ...process.env, TABLE_NAME: api.tableName, DYNAMODB_ENDPOINT: api.dynamoEndpoint }
    await Promise.all(
      [1, 2, 3, 4].map((p) =>
        run(
          'node_modules/.bin/tsx',
          ['test/http/ledger/concurrency-worker.ts', merchantId, accountOf(p), '25', `SEQ-${p}`],
          { env },
        ),
      ),
    )
    // The workers wrote the ledger only; the history is the indexer's (the local stream drive).
    await api.settled()

    const ledger = (
      await Promise.all(
        [1, 2, 3, 4].flatMap((p) =>
          Array.from({ length: 25 }, (_, i) => getBankRequest('dev-switch', `SEQ-${p}-${i}`)),
        ),
      )
    ).map((r) => r as TransferRecord)
    expect(ledger.every((r) => r?.kind === 'TRANSFER')).toBe(true)

    const history = await storedHistory(merchantId)

    // Every number 1..100 exactly once, in every numbering, and the head agrees.
    expect(ascending(history.map((h) => h.seqAll))).toEqual(range(100))
    const ok = history.filter((h) => h.seqOk !== undefined).map((h) => h.seqOk)
    const failed = history.filter((h) => h.seqFailed !== undefined).map((h) => h.seqFailed)
    expect(ascending(ok)).toEqual(range(ok.length))
    expect(ascending(failed)).toEqual(range(failed.length))
    const head = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.historyHead(merchantId) }))
    ).Item!
    expect({ all: head.all, ok: head.ok, failed: head.failed }).toEqual({ all: 100, ok: 60, failed: 40 })
    // The time index sorts as the numbering does (date ranges are key ranges), never more than a
    // moment from the ledger's createdAt.
    const byNumber = [...history].sort((a, b) => a.seqAll - b.seqAll)
    expect(byNumber.every((h, i) => i === 0 || h.gsi2sk > byNumber[i - 1]!.gsi2sk)).toBe(true)
    expect(history.every((h) => h.gsi2sk.slice(0, 23) >= h.createdAt)).toBe(true)

    // The history is the ledger, record for record.
    const fields = (r: Record<string, any>) => ({
      requestId: r.requestId,
      providerReference: r.providerReference,
      merchantReference: r.merchantReference,
      accountNumber: r.accountNumber,
      amountKobo: r.amountKobo,
      status: r.status,
      responseCode: r.responseCode,
    })
    const order = (a: Record<string, any>, b: Record<string, any>) => a.requestId.localeCompare(b.requestId)
    expect(history.map(fields).sort(order)).toEqual(ledger.map(fields).sort(order))
    expect(history.map((h) => `${h.requestId} ${h.createdAt} ${h.completedAt}`).sort()).toEqual(
      ledger.map((r) => `${r.requestId} ${r.createdAt} ${r.createdAt}`).sort(),
    )

    // And the day's totals are the history's sums.
    const days = new Map<string, { ok: number; okKobo: number; failed: number; failedKobo: number }>()
    for (const h of history) {
      const day = days.get(h.createdAt.slice(0, 10)) ?? { ok: 0, okKobo: 0, failed: 0, failedKobo: 0 }
      if (h.status === 'SUCCESSFUL') {
        day.ok++
        day.okKobo += h.amountKobo
      } else {
        day.failed++
        day.failedKobo += h.amountKobo
      }
      days.set(h.createdAt.slice(0, 10), day)
    }
    for (const [date, sums] of days) {
      const totals = (
        await db().send(new GetCommand({ TableName: tableName(), Key: keys.historyDay(merchantId, date) }))
      ).Item!
      expect(totals).toMatchObject({
        successfulCount: sums.ok,
        successfulKobo: sums.okKobo,
        failedCount: sums.failed,
        failedKobo: sums.failedKobo,
      })
    }
  })
})
