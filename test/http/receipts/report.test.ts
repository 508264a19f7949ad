import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { readChain, updateChain } from '#lib/receipts/chain-store.ts'
import { buildInvoice, newIrn } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  areaAClient,
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { b2cInvoice, hashOf, registerTill } from '../../support/receipts.ts'

/** CONTRACT 23: POST /api/v1/receipts, each rule with its own case, and the chain it leaves. */

let api: TestApi
let live: DevClients
let test: TestModeClients
let otherAdmin: ReturnType<typeof areaAClient>
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
  const credentials = { apiKey: 'receipts-other-admin', secret: 'receipts-other-admin-secret' }
  await issueApiClient({ ...credentials, businessId: DEV.other.businessId, roles: ['ADMIN'] })
  otherAdmin = areaAClient(api.url, credentials)
})
afterAll(async () => {
  await api?.close()
})

const HOUR = 3600 * 1000
const report = (receipts: unknown[], client = live.si) => client.post<any>('/api/v1/receipts', { receipts })
const resultsOf = async (receipts: unknown[], client = live.si) => {
  const reply = await report(receipts, client)
  expect(reply.status).toBe(200)
  return reply.body.data as any[]
}
const chainOf = async (deviceId: string, admin = live.admin) =>
  (await admin.get<any>(`/api/v1/devices/${deviceId}/chain`)).body.data

/** A till's counters 1 to 3, and its retry of counter 2 built afresh after a timeout: same prev_hash, other bytes. */
async function tillWithRetry() {
  const { till } = await registerTill(live.admin)
  const one = till.next()
  const two = till.next()
  const retry = till.sign({ ...b2cInvoice(), device: two.device })
  return { till, one, two, retry, three: till.next() }
}

describe('POST /api/v1/receipts', () => {
  it('reports Ed25519 and P-256 receipts: signed invoices of the business that confirm and search find', async () => {
    for (const kind of ['Ed25519', 'P-256'] as const) {
      const { till } = await registerTill(live.admin, kind)
      const first = till.next()
      const second = till.next()
      const results = await resultsOf([first, second], kind === 'Ed25519' ? live.si : live.app)
      expect(results).toEqual([
        { hash: hashOf(first), status: 'REPORTED', irn: first.irn },
        { hash: hashOf(second), status: 'REPORTED', irn: second.irn },
      ])
      const confirmed = await live.app.get<any>(`/api/v1/invoice/confirm/${first.irn}`)
      expect(confirmed.status).toBe(200)
      expect(JSON.stringify(confirmed.body)).toMatch(/SIGNED/)
      const found = await live.si.get<any>(`/api/v1/invoices?irn=${second.irn}`)
      expect(found.body.data.content.map((s: any) => s.irn)).toEqual([second.irn])
      expect(await chainOf(till.deviceId)).toMatchObject({
        last_counter: 2,
        last_hash: hashOf(second),
        verified_through: 2,
        gaps: [],
        forks: [],
        late_count: 0,
      })
    }
  })

  it('rejects a receipt of an unknown device, of another business and of the other mode (stored nowhere)', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    const [other] = await resultsOf([receipt], live.other)
    expect(other).toMatchObject({
      status: 'REJECTED',
      errors: [{ path: 'device/device_id', code: 'RECEIPT_UNKNOWN_DEVICE' }],
    })
    const [sandbox] = await resultsOf([receipt], test.si)
    expect(sandbox.errors[0].code).toBe('RECEIPT_UNKNOWN_DEVICE')
    // Then the business's own report is the first: nothing of the refused ones was kept.
    expect((await resultsOf([receipt]))[0].status).toBe('REPORTED')
  })

  it('rejects a receipt whose signature does not verify (a byte changed after signing)', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    const tampered = { ...receipt, note: 'changed after signing' }
    const [result] = await resultsOf([tampered])
    expect(result).toMatchObject({
      status: 'REJECTED',
      errors: [{ path: 'signature', code: 'RECEIPT_SIGNATURE' }],
    })
    expect(result.hash).toBe(hashOf(tampered))
    expect((await chainOf(till.deviceId)).last_counter).toBe(0)
  })

  it('rejects counter 1 that does not name the genesis hash', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next({ device: { prev_hash: hashOf({ not: 'genesis' }) } })
    const [result] = await resultsOf([receipt])
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'device/prev_hash', code: 'RECEIPT_GENESIS' }),
    ])
  })

  it('rejects an issued_at more than 5 minutes ahead; the rejected receipt keeps its counter and its correction follows it', async () => {
    const { till } = await registerTill(live.admin)
    const ahead = till.next({ issuedAt: new Date(Date.now() + 10 * 60 * 1000).toISOString() })
    const correction = till.next({ corrects: hashOf(ahead) })
    const results = await resultsOf([ahead, correction])
    expect(results[0]).toMatchObject({
      status: 'REJECTED',
      errors: [{ path: 'device/issued_at', code: 'RECEIPT_FUTURE' }],
    })
    expect(results[1]).toMatchObject({ status: 'REPORTED' })
    expect(await chainOf(till.deviceId)).toMatchObject({ verified_through: 2, gaps: [] })
    // 4 minutes ahead is a till's clock drifting: accepted.
    expect(
      (await resultsOf([till.next({ issuedAt: new Date(Date.now() + 4 * 60 * 1000).toISOString() })]))[0]
        .status,
    ).toBe('REPORTED')
  })

  it('rejects an IRN already used by another invoice', async () => {
    const irn = newIrn()
    expect((await live.app.post<any>('/api/v1/invoice/sign', buildInvoice({ irn }))).status).toBe(200)
    const { till } = await registerTill(live.admin)
    const [result] = await resultsOf([till.next({ invoice: b2cInvoice(irn) })])
    expect(result).toMatchObject({
      status: 'REJECTED',
      irn,
      errors: [{ path: 'irn', code: 'RECEIPT_IRN_USED' }],
    })
  })

  it('rejects a receipt whose invoice breaks the invoice rules (each problem at its path), and one that is not B2C', async () => {
    const { till } = await registerTill(live.admin)
    const { legal_monetary_total: _total, ...invoice } = b2cInvoice()
    const broken = till.next({ invoice })
    const b2b = till.next({ invoice: { ...b2cInvoice(), invoice_kind: 'B2B' } })
    const [first, second] = await resultsOf([broken, b2b])
    expect(first.status).toBe('REJECTED')
    expect(first.errors.map((e: any) => e.path)).toContain('legal_monetary_total')
    expect(second.errors).toEqual([
      expect.objectContaining({ path: 'invoice_kind', code: 'RECEIPT_NOT_B2C' }),
    ])
  })

  it('answers a byte-identical receipt with DUPLICATE and its first result, in the same request or any later one', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    const [first, again] = await resultsOf([receipt, receipt])
    expect(first.status).toBe('REPORTED')
    const duplicate = {
      hash: hashOf(receipt),
      status: 'DUPLICATE',
      irn: receipt.irn,
      duplicate_of: hashOf(receipt),
      first,
    }
    expect(again).toEqual(duplicate)
    expect((await resultsOf([receipt]))[0]).toEqual(duplicate)
    // A rejected receipt's resend is answered with its first result too.
    const future = till.next({ issuedAt: new Date(Date.now() + HOUR).toISOString() })
    const [rejected] = await resultsOf([future])
    expect((await resultsOf([future]))[0]).toMatchObject({ status: 'DUPLICATE', first: rejected })
  })

  it('reports a second receipt at a counter as FORK, keeping both and the first untouched; also one naming a prev_hash already named', async () => {
    const { till } = await registerTill(live.admin)
    const one = till.next()
    const two = till.next()
    const twoAgain = till.sign({ ...b2cInvoice(), device: two.device })
    const three = till.next()
    // Counter 4 regenerated after a timeout, naming the same prev_hash as counter 3.
    const stray = till.sign({ ...b2cInvoice(), device: { ...three.device, counter: 4 } })
    const results = await resultsOf([one, two, twoAgain, three, stray])
    expect(results.map((r) => r.status)).toEqual(['REPORTED', 'REPORTED', 'FORK', 'REPORTED', 'FORK'])
    expect(results[2].fork_of).toBe(hashOf(two))
    expect(results[4].fork_of).toBe(hashOf(three))
    const chain = await chainOf(till.deviceId)
    expect(chain.verified_through).toBe(3)
    expect(chain.forks).toEqual([
      { counter: 2, hashes: [hashOf(two), hashOf(twoAgain)] },
      { counter: 4, hashes: [hashOf(three), hashOf(stray)] },
    ])
    // The fork again is a DUPLICATE of the fork; the first is as it was.
    expect((await resultsOf([twoAgain]))[0]).toMatchObject({ status: 'DUPLICATE', first: { status: 'FORK' } })
    expect((await resultsOf([two]))[0]).toMatchObject({ status: 'DUPLICATE', first: { status: 'REPORTED' } })
  })

  it('takes receipts in any order: none waits for another, and the chain shows the gap until it is filled', async () => {
    const { till } = await registerTill(live.admin)
    const [one, two, three, four] = [till.next(), till.next(), till.next(), till.next()]
    expect((await resultsOf([four, two])).map((r) => r.status)).toEqual(['REPORTED', 'REPORTED'])
    expect(await chainOf(till.deviceId)).toMatchObject({
      last_counter: 4,
      verified_through: 0,
      gaps: [
        { from: 1, to: 1, overdue: false },
        { from: 3, to: 3, overdue: false },
      ],
    })
    await resultsOf([three, one])
    expect(await chainOf(till.deviceId)).toMatchObject({
      last_counter: 4,
      verified_through: 4,
      gaps: [],
      last_hash: hashOf(four),
    })
  })

  it('verifies the chain through the original when its regenerated retry arrived first, whichever comes next', async () => {
    for (const originalBeforeNext of [true, false]) {
      const { till, one, two, retry, three } = await tillWithRetry()
      expect((await resultsOf([one, retry])).map((r) => r.status)).toEqual(['REPORTED', 'REPORTED'])
      const rest = originalBeforeNext ? [two, three] : [three, two]
      const results = await resultsOf(rest)
      expect(results.map((r) => r.status)).toEqual(
        originalBeforeNext ? ['FORK', 'REPORTED'] : ['REPORTED', 'FORK'],
      )
      expect(await chainOf(till.deviceId)).toMatchObject({
        last_counter: 3,
        verified_through: 3,
        gaps: [],
        forks: [{ counter: 2, hashes: [hashOf(retry), hashOf(two)] }],
      })
    }
  })

  it('merges a FORK again when it is resent after its chain update was lost', async () => {
    const { till, one, two, retry, three } = await tillWithRetry()
    expect((await resultsOf([one, retry, three])).map((r) => r.status)).toEqual([
      'REPORTED',
      'REPORTED',
      'REPORTED',
    ])
    const before = await readChain(till.deviceId)
    expect((await resultsOf([two]))[0].status).toBe('FORK')
    expect((await chainOf(till.deviceId)).verified_through).toBe(3)
    // The report cut after storing the FORK and before its chain update: the chain as it was.
    await updateChain(till.deviceId, () => ({ ...before }))
    expect((await chainOf(till.deviceId)).verified_through).toBe(2)
    const [resent] = await resultsOf([two])
    expect(resent).toMatchObject({ status: 'DUPLICATE', first: { status: 'FORK' } })
    expect(await chainOf(till.deviceId)).toMatchObject({
      last_counter: 3,
      verified_through: 3,
      gaps: [],
      forks: [{ counter: 2, hashes: [hashOf(retry), hashOf(two)] }],
    })
  })

  it('reports a receipt received after report_by (issued_at + 24 h) with late: true, counted in the chain', async () => {
    const { till } = await registerTill(live.admin)
    const old = till.next({ issuedAt: new Date(Date.now() - 25 * HOUR).toISOString() })
    const fresh = till.next()
    const results = await resultsOf([old, fresh])
    expect(results[0]).toMatchObject({ status: 'REPORTED', late: true })
    expect(results[1].late).toBeUndefined()
    expect((await chainOf(till.deviceId)).late_count).toBe(1)
  })

  it("accepts a revoked device's receipts issued before its revocation, and rejects those issued after", async () => {
    const { till } = await registerTill(live.admin)
    const before = till.next({ issuedAt: new Date(Date.now() - 60_000).toISOString() })
    await live.admin.request('DELETE', `/api/v1/devices/${till.deviceId}`)
    const after = till.next({ issuedAt: new Date(Date.now() + 1000).toISOString() })
    const results = await resultsOf([before, after])
    expect(results[0].status).toBe('REPORTED')
    expect(results[1]).toMatchObject({
      status: 'REJECTED',
      errors: [{ path: 'device/issued_at', code: 'RECEIPT_DEVICE_REVOKED' }],
    })
  })

  it('rejects what is not a receipt in its place (the others are reported)', async () => {
    const { till } = await registerTill(live.admin)
    const good = till.next()
    const results = await resultsOf(['nope', { device: { device_id: 'x' } }, good])
    expect(results[0]).toMatchObject({ status: 'REJECTED', errors: [{ path: '', code: 'RECEIPT_SHAPE' }] })
    expect(results[1].errors.map((e: any) => e.path)).toEqual(
      expect.arrayContaining([
        'device/device_id',
        'device/counter',
        'device/prev_hash',
        'device/issued_at',
        'signature',
      ]),
    )
    expect(results[2].status).toBe('REPORTED')
  })

  it('refuses a body that is not 1 to 1,000 receipts (400 at receipts)', async () => {
    const empty = await report([])
    expect(empty.status).toBe(400)
    expect(empty.body.error.errors[0].path).toBe('receipts')
    const many = await report(Array.from({ length: 1001 }, () => ({})))
    expect(many.status).toBe(400)
    expect((await live.si.post<any>('/api/v1/receipts', { receipts: 'x' })).status).toBe(400)
  })

  it('keeps test-mode receipts apart: the test clock makes them late and their gaps overdue', async () => {
    const { till } = await registerTill(test.admin)
    const one = till.next()
    till.next()
    const three = till.next()
    expect((await resultsOf([one, three], test.si)).map((r) => r.status)).toEqual(['REPORTED', 'REPORTED'])
    expect((await chainOf(till.deviceId, test.admin)).gaps).toEqual([{ from: 2, to: 2, overdue: false }])
    expect((await live.admin.get<any>(`/api/v1/devices/${till.deviceId}/chain`)).status).toBe(404)
    expect((await resultsOf([till.next()], live.si))[0].errors[0].code).toBe('RECEIPT_UNKNOWN_DEVICE')
    expect((await test.admin.post<any>('/api/v1/test/clock/advance', { seconds: 25 * 3600 })).status).toBe(
      200,
    )
    expect((await chainOf(till.deviceId, test.admin)).gaps).toEqual([{ from: 2, to: 2, overdue: true }])
    const [late] = await resultsOf([till.next({ issuedAt: new Date().toISOString() })], test.si)
    expect(late).toMatchObject({ status: 'REPORTED', late: true })
  })

  it('is not open to another business: its admin cannot read the chain (404)', async () => {
    const { till } = await registerTill(live.admin)
    expect((await otherAdmin.get<any>(`/api/v1/devices/${till.deviceId}/chain`)).status).toBe(404)
  })
})
