import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { addMerchant, getAccount, openAccount } from '#lib/ledger/repository.ts'
import type { TransactionRecord } from '#lib/merchant-history/service.ts'
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../scripts/local/dynamodb-local.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { runCli } from '../../support/cli.ts'
import { expectStatementsMatchHistory } from '../../support/finance.ts'

/**
 * DynamoDB goes away in the middle of a burst of transfers and comes back (same port, same data on
 * disk). Every transfer is one transaction, so each requestId must end with exactly one debit or none,
 * whatever moment the database vanished at, and a retry with the same requestId must finish the job.
 */
let dataDir: string
let dynamo: DynamoDbLocal
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ledger-fault-'))
  dynamo = await startDynamoDbLocal({ dataDir, heapMb: 256 })
  api = await startApi({ dynamoEndpoint: dynamo.endpoint })
  clients = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await dynamo?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const ACCOUNT = '7200000001'
const MERCHANT = 'MRC-FAULT'
const OPENING_KOBO = 300_000 // 3,000.00: enough for some of the burst, not all of it

describe('transfers while DynamoDB goes down and comes back', () => {
  it('ends every requestId with exactly one debit or none; balances, history, statements and reconciliation agree', {
    timeout: 360_000,
  }, async () => {
    await openAccount({ accountNumber: ACCOUNT, name: 'Fault account', balanceKobo: OPENING_KOBO })
    await addMerchant({ merchantId: MERCHANT, name: 'Fault merchant' })
    const { token } = await issueMerchantToken({ merchantId: MERCHANT })
    const merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })

    const bodies = Array.from({ length: 60 }, (_, i) => ({
      requestId: `FAULT-${i}-${randomUUID()}`,
      stan: String(100000 + i),
      processingCode: '400000',
      merchantId: MERCHANT,
      merchantReference: `FAULT-ORDER-${i}`,
      accountNumber: ACCOUNT,
      amount: 50 + (i % 7) * 10.25,
      currency: 'NGN',
      productCode: 'FAULT',
    }))
    const send = (body: (typeof bodies)[number]) =>
      clients.switch
        .post<{ responseCode: string }>('/api/v1/transactions/transfer', body)
        .catch((error: Error) => ({
          status: 0,
          body: { responseCode: `network: ${error.message}` },
        }))

    // The burst: six in flight at a time; DynamoDB is stopped when the 15th reply arrives.
    const statuses: number[] = []
    let replies = 0
    let stopping: Promise<void> | undefined
    let next = 0
    const worker = async () => {
      while (next < bodies.length) {
        const reply = await send(bodies[next++]!)
        statuses.push(reply.status)
        if (++replies === 15) stopping = dynamo.stop()
      }
    }
    await Promise.all(Array.from({ length: 6 }, worker))
    await stopping
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0)

    dynamo = await startDynamoDbLocal({ dataDir, port: dynamo.port, heapMb: 256 })

    // Every requestId again, until each has its final answer.
    const finals = new Map<string, string>()
    for (const body of bodies) {
      for (let attempt = 0; ; attempt++) {
        const reply = await send(body)
        statuses.push(reply.status)
        if (reply.status === 200) {
          finals.set(body.requestId, reply.body.responseCode)
          break
        }
        expect(reply.status, JSON.stringify(reply.body)).toBe(503)
        expect(attempt).toBeLessThan(40)
        await new Promise((r) => setTimeout(r, 250))
      }
    }

    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    expect([...finals.values()].every((c) => c === '00' || c === '51')).toBe(true)

    // The money: opening balance minus exactly the approved transfers.
    const approvedKobo = bodies
      .filter((b) => finals.get(b.requestId) === '00')
      .reduce((sum, b) => sum + Math.round(b.amount * 100), 0)
    expect((await getAccount(ACCOUNT))!.balanceKobo).toBe(OPENING_KOBO - approvedKobo)

    // The records: one history item per requestId, matching its final answer; their sum is the debit.
    const history = await merchant.get<{
      data: { content: TransactionRecord[]; page: { totalElements: number } }
    }>('/api/v1/merchant/transactions?size=200')
    expect(history.body.data.page.totalElements).toBe(bodies.length)
    const byReference = new Map(history.body.data.content.map((t) => [t.merchantReference, t]))
    expect(byReference.size).toBe(bodies.length)
    for (const body of bodies) {
      expect(byReference.get(body.merchantReference)?.status).toBe(
        finals.get(body.requestId) === '00' ? 'SUCCESSFUL' : 'FAILED',
      )
    }
    const recordedKobo = history.body.data.content
      .filter((t) => t.status === 'SUCCESSFUL')
      .reduce((sum, t) => sum + Math.round(t.amount * 100), 0)
    expect(recordedKobo).toBe(approvedKobo)

    // After the outage: some approved transfers reversed at once; then each day's statement equals the
    // history's sums and the reconciliation finds the ledger, history and day totals in agreement.
    const toReverse = bodies.filter((b) => finals.get(b.requestId) === '00').slice(0, 5)
    expect(toReverse.length).toBeGreaterThan(0)
    const reversals = await Promise.all(
      toReverse.map((b, i) =>
        clients.switch.post<{ responseCode: string }>('/api/v1/transactions/reversal', {
          requestId: `FAULT-REV-${i}-${randomUUID()}`,
          stan: String(300000 + i),
          processingCode: '400000',
          originalRequestId: b.requestId,
        }),
      ),
    )
    expect(reversals.map((r) => [r.status, r.body.responseCode])).toEqual(toReverse.map(() => [200, '00']))
    const perDay = await expectStatementsMatchHistory(merchant, MERCHANT)
    const reversed = [...perDay.values()].reduce((n, s) => n + s.REVERSED.count, 0)
    expect(reversed).toBe(toReverse.length)

    const reconciled = await runCli(api, 'ledger', 'reconcile')
    expect(reconciled.stdout).toContain('Reconciled: no differences.')
    expect(reconciled.code).toBe(0)
  })
})
