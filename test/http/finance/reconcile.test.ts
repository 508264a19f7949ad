import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { runCli } from '../../support/cli.ts'
import { expectStatementsMatchHistory, wholeHistory } from '../../support/finance.ts'
import { storedHistory } from '../../support/history.ts'

const MERCHANT = 'MRC-RECON'
/** Ten payers; the last one can afford only a few transfers, so some of the burst is declined. */
const ACCOUNTS = Array.from({ length: 10 }, (_, i) => `74000000${String(i).padStart(2, '0')}`)

let api: TestApi
let clients: DevClients
let merchant: ApiClient
let dir: string
const transfers: { requestId: string; responseCode: string }[] = []

/** `npm run cli -- ...` against this file's table. */
const cli = (...args: string[]) => runCli(api, ...args)

beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  dir = await mkdtemp(join(tmpdir(), 'finance-'))
  await addMerchant({ merchantId: MERCHANT, name: 'Reconciled merchant' })
  await Promise.all(
    ACCOUNTS.map((accountNumber, i) =>
      openAccount({ accountNumber, name: `Payer ${i}`, balanceKobo: i === 9 ? 30_000 : 10_000_000 }),
    ),
  )
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })

  // 200 transfers at once for one merchant, then 20 reversals at once.
  const replies = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const requestId = `RECON-${i}-${randomUUID()}`
      const reply = await clients.switch.post<{ responseCode: string }>('/api/v1/transactions/transfer', {
        requestId,
        stan: String(200000 + i),
        processingCode: '400000',
        merchantId: MERCHANT,
        merchantReference: `RECON-ORDER-${i}`,
        accountNumber: ACCOUNTS[i % ACCOUNTS.length],
        amount: (2_500 + (i % 13) * 735) / 100,
        currency: 'NGN',
        productCode: 'RECON',
      })
      expect(reply.status).toBe(200)
      return { requestId, responseCode: reply.body.responseCode }
    }),
  )
  transfers.push(...replies)
  expect(transfers.filter((t) => t.responseCode === '51').length).toBeGreaterThan(0)
  const toReverse = transfers.filter((t) => t.responseCode === '00').slice(0, 20)
  const reversals = await Promise.all(
    toReverse.map((t, i) =>
      clients.switch.post<{ responseCode: string }>('/api/v1/transactions/reversal', {
        requestId: `RECON-REV-${i}-${randomUUID()}`,
        stan: String(300000 + i),
        processingCode: '400000',
        originalRequestId: t.requestId,
      }),
    ),
  )
  expect(reversals.every((r) => r.status === 200 && r.body.responseCode === '00')).toBe(true)
}, 300_000)
afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('npm run cli -- history export', () => {
  it('writes the whole period to one CSV file equal to the JSON history, with progress on stderr', async () => {
    const file = join(dir, 'export.csv')
    const result = await cli('history', 'export', '--merchant', MERCHANT, '--out', file)
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/history export: MRC-RECON 200 of 200 rows \([\d,]+\/s, 0 s left\)/)
    const rows = parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[]
    const json = await wholeHistory(merchant)
    expect(rows.map((r) => [r.providerReference, r.status, r.amount])).toEqual(
      json.map((r) => [r.providerReference, r.status, r.amount.toFixed(2)]),
    )
    expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toMatchObject({ rows: 200, pages: 1 })
  })

  it('refuses a bad filter, saying which', async () => {
    const result = await cli(
      'history',
      'export',
      '--merchant',
      MERCHANT,
      '--out',
      join(dir, 'x.csv'),
      '--status',
      'LOST',
    )
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/status must be one of/)
  })
})

describe('GET /api/v1/merchant/statement after the burst', () => {
  it("equals, for each day, the sums of that day's history by current status", async () => {
    const perDay = await expectStatementsMatchHistory(merchant, MERCHANT)
    // The burst's own figures, independently of the history: 200 in all, 20 reversed, every decline failed.
    const sums = [...perDay.values()]
    const total = (status: 'SUCCESSFUL' | 'FAILED' | 'REVERSED') =>
      sums.reduce((n, s) => n + s[status].count, 0)
    expect(total('SUCCESSFUL') + total('FAILED') + total('REVERSED')).toBe(200)
    expect(total('REVERSED')).toBe(20)
    expect(total('FAILED')).toBe(transfers.filter((t) => t.responseCode === '51').length)
  })
})

describe('npm run cli -- ledger reconcile', () => {
  it('passes after 200 parallel transfers and 20 parallel reversals', async () => {
    const result = await cli('ledger', 'reconcile')
    expect(result.stdout).toContain('Reconciled: no differences.')
    expect(result.stdout).toMatch(/Checked \d+ accounts, \d+ merchants, 200 transfers, 200 history items/)
    expect(result.code).toBe(0)
    // Progress while it scans: items so far and the rate, on stderr.
    expect(result.stderr).toMatch(/reconcile: scanned [\d,]+ items \([\d,]+\/s\)/)
  })

  it('names a mistyped command and the one meant', async () => {
    const result = await cli('ledger', 'reconcil')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(
      'Unknown subcommand "reconcil" of "ledger". Did you mean "ledger reconcile"?',
    )
  })

  it('fails, naming the account and the amount, after a balance is changed directly in the table', async () => {
    const victim = ACCOUNTS[3]!
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account(victim),
        UpdateExpression: 'SET balanceKobo = balanceKobo + :stolen',
        ExpressionAttributeValues: { ':stolen': 12_345 },
      }),
    )
    const result = await cli('ledger', 'reconcile', '--settle-ms', '100')
    expect(result.code).toBe(1)
    // The verdict before the lines: the count of differences comes right after the summary.
    expect(result.stdout.split('\n')[1]).toMatch(/^\d+ differences? found:$/)
    expect(result.stderr).toMatch(/difference\(s\) in the first scan; checking again in 100 ms/)
    expect(result.stdout).toMatch(
      new RegExp(
        `DIFFERENCE account ${victim}: balance [\\d.]+ but opening 100000\\.00 \\+ transactions -[\\d.]+ = [\\d.]+ \\(off by 123\\.45\\)`,
      ),
    )
    // Only that account is wrong.
    const wrongAccounts = result.stdout.split('\n').filter((line) => line.startsWith('DIFFERENCE account'))
    expect(wrongAccounts).toHaveLength(1)
  })

  it('names a history item stored in another stripe than its number says (pages would not find it)', async () => {
    const stored = await storedHistory(MERCHANT)
    const moved = stored.find((i) => i.seqAll === 150)!
    const elsewhere = keys.historyListPartition(MERCHANT, 5)
    expect(moved.pk).not.toBe(elsewhere)
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: moved.pk, sk: moved.sk } }))
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...moved, pk: elsewhere } }))
    const result = await cli('ledger', 'reconcile', '--settle-ms', '100')
    expect(result.code).toBe(1)
    const misplaced = result.stdout.split('\n').filter((line) => line.includes('belongs under'))
    expect(misplaced).toEqual([
      `DIFFERENCE merchant ${MERCHANT}: history item ${moved.providerReference} (number 150) has pk ${elsewhere} but its number belongs under ${moved.pk}, so pages do not show it there`,
    ])
  })
})
