import { generateKeyPairSync, type JsonWebKey } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import {
  canonicalJson,
  generateDeviceKeys,
  genesisHash,
  receiptBytes,
  receiptHash,
  verifyReceiptSignature,
} from '#client/receipts/crypto.ts'
import { type Receipt, ReceiptChain, type ReceiptChainOptions } from '#client/receipts/chain.ts'
import { MemoryReceiptStore } from '#client/receipts/store.ts'
import { parseReceiptVerifyUrl } from '#client/receipts/verify-url.ts'

/**
 * ReceiptChain (CONTRACT 23) with no network: it builds, chains, signs and stores receipts, and
 * reports them through a fake fetch standing in for POST /api/v1/receipts (the service's own tests
 * hold the real route), resending exactly the stored bytes and never a regenerated receipt.
 */

// A device id as the service issues them: dev_ and 32 hex digits.
const DEVICE = 'dev_0f3a9c1e5b7d4a2c8e6f1b3d5a7c9e0f'
const BASE = 'http://127.0.0.1:3000'
const VERIFY = 'https://einvoice.example.ng'
// 2026-12-02 23:30 UTC is 00:30 on 3 December in Lagos: the day a receipt carries is Lagos's.
const START = Date.parse('2026-12-02T23:30:00Z')

const invoice = (total = 1075.5) => ({
  business_id: 'b7a1f0e2-5c1d-4e3a-9f0b-1a2b3c4d5e6f',
  invoice_type_code: '396',
  document_currency_code: 'NGN',
  tax_currency_code: 'NGN',
  legal_monetary_total: { payable_amount: total },
})

/** A clock the test moves: one second per reading. */
function clock(start = START) {
  let t = start
  return {
    now: () => {
      t += 1000
      return new Date(t)
    },
    set: (ms: number) => {
      t = ms
    },
  }
}

function chainOf(overrides: Partial<ReceiptChainOptions> = {}) {
  const { privateJwk, publicJwk } = generateDeviceKeys('Ed25519')
  const store = new MemoryReceiptStore()
  const time = clock()
  const chain = new ReceiptChain({
    deviceId: DEVICE,
    privateKey: privateJwk,
    store,
    serviceId: '94ND90NR',
    verifyBaseUrl: VERIFY,
    now: time.now,
    ...overrides,
  })
  return { chain, store, publicJwk, time }
}

/**
 * A fake POST /api/v1/receipts: checks each receipt's hash link and signature as the service does,
 * remembers the first result of each hash, and can be told to fail, hang, refuse some receipts or
 * answer other than 200.
 */
class FakeService {
  readonly bodies: string[] = []
  readonly keys = new Map<string, JsonWebKey>()
  readonly first = new Map<string, Record<string, unknown>>()
  readonly slots = new Map<number, string>()
  reject = new Set<string>()
  fail: 'network' | 'hang' | number | undefined
  now = START
  /** Leave these hashes out of the reply (an answer that lost some results). */
  omit = new Set<string>()

  fetch = async (input: URL | string, init: RequestInit): Promise<Response> => {
    expect(String(input)).toBe(`${BASE}/api/v1/receipts`)
    expect(init.method).toBe('POST')
    expect((init.headers as Record<string, string>)['x-api-key']).toBe('dev-si-key')
    const body = init.body as string
    this.bodies.push(body)
    if (this.fail === 'network') throw new TypeError('fetch failed')
    if (this.fail === 'hang')
      return new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )
    if (typeof this.fail === 'number') return Response.json({ code: 'UNAVAILABLE' }, { status: this.fail })
    const { receipts } = JSON.parse(body) as { receipts: Receipt[] }
    const results = receipts
      .map((receipt) => this.answer(receipt))
      .filter((r) => !this.omit.has(r.hash as string))
    return Response.json({ code: 200, data: results })
  }

  private answer(receipt: Receipt): Record<string, unknown> {
    const hash = receiptHash(receipt)
    const first = this.first.get(hash)
    if (first) return { hash, status: 'DUPLICATE', duplicate_of: hash, first }
    let result: Record<string, unknown>
    const key = this.keys.get(receipt.device.device_id)
    if (!key || !verifyReceiptSignature(receipt, key))
      result = { hash, status: 'REJECTED', errors: [{ code: 'SIGNATURE' }] }
    else if (this.reject.has(hash)) result = { hash, status: 'REJECTED', errors: [{ code: 'NG-CO-10' }] }
    else if (this.slots.has(receipt.device.counter)) result = { hash, status: 'FORK' }
    else {
      this.slots.set(receipt.device.counter, hash)
      const late = this.now > Date.parse(receipt.device.issued_at) + 24 * 3600_000
      result = { hash, status: 'REPORTED', ...(late ? { late: true } : {}) }
    }
    this.first.set(hash, result)
    return result
  }
}

let service: FakeService
const api = new ApiClient(BASE, { area: 'A', credentials: { apiKey: 'dev-si-key', secret: 'dev-si-secret' } })

beforeEach(() => {
  service = new FakeService()
  vi.stubGlobal('fetch', service.fetch)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('ReceiptChain.issue', () => {
  for (const algorithm of ['Ed25519', 'P-256'] as const) {
    it(`chains and signs receipts with ${algorithm}: counter 1, 2, 3, each naming its predecessor's hash`, async () => {
      const { privateJwk, publicJwk } = generateDeviceKeys(algorithm)
      const { chain, store } = chainOf({ privateKey: privateJwk })
      expect(chain.publicJwk).toEqual(publicJwk)
      const issued = [
        await chain.issue(invoice(1)),
        await chain.issue(invoice(2)),
        await chain.issue(invoice(3)),
      ]
      let prev = genesisHash(DEVICE)
      for (const [i, { receipt, hash }] of issued.entries()) {
        expect(receipt.device).toMatchObject({ device_id: DEVICE, counter: i + 1, prev_hash: prev })
        expect(hash).toBe(receiptHash(receipt))
        expect(verifyReceiptSignature(receipt, publicJwk)).toBe(true)
        prev = hash
      }
      // The store holds each receipt's exact signed text, and the head is the last receipt.
      const held = await store.list()
      expect(held.map((r) => r.json)).toEqual(issued.map(({ receipt }) => canonicalJson(receipt)))
      expect(held.map((r) => r.state)).toEqual(['PENDING', 'PENDING', 'PENDING'])
      expect(await store.loadHead()).toEqual({ counter: 3, last_hash: issued[2]!.hash })
    })
  }

  it("adds invoice_kind B2C, the IRN, the issue date and time in Lagos's day, and issued_at with its offset", async () => {
    const { chain } = chainOf()
    const { receipt } = await chain.issue(invoice())
    expect(receipt).toMatchObject({
      ...invoice(),
      invoice_kind: 'B2C',
      // The invoice number: the device id's letters and digits, then the counter in 8 digits.
      irn: 'dev0f3a9c1e5b7d4a2c8e6f1b3d5a7c9e0f00000001-94ND90NR-20261203',
      issue_date: '2026-12-03',
      issue_time: '00:30:01',
      device: { issued_at: '2026-12-03T00:30:01+01:00' },
    })
    expect(receipt).not.toHaveProperty('corrects')
  })

  it("keeps the caller's IRN, kind, date and time, and writes another offset as given", async () => {
    const { chain } = chainOf({ utcOffsetMinutes: -90, invoiceNumberPrefix: 'TILL7' })
    const mine = {
      ...invoice(),
      irn: 'SALE42-94ND90NR-20261202',
      issue_date: '2026-12-02',
      issue_time: '21:00:00',
    }
    const { receipt } = await chain.issue(mine)
    expect(receipt).toMatchObject(mine)
    expect(receipt.device.issued_at).toBe('2026-12-02T22:00:01-01:30')
    expect((await chain.issue(invoice())).receipt.irn).toBe('TILL700000002-94ND90NR-20261202')
  })

  it('gives each of many receipts issued at once its own counter, in one unbroken chain', async () => {
    const { chain, store } = chainOf()
    const issued = await Promise.all(Array.from({ length: 50 }, (_, i) => chain.issue(invoice(i + 1))))
    expect(issued.map(({ receipt }) => receipt.device.counter).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    )
    const held = await store.list()
    let prev = genesisHash(DEVICE)
    for (const r of held) {
      expect((JSON.parse(r.json) as Receipt).device.prev_hash).toBe(prev)
      prev = r.hash
    }
  })

  it('returns the QR URL of the receipt on the verification page, and a copy the caller cannot change', async () => {
    const { chain, store } = chainOf()
    const { receipt, hash, qrUrl } = await chain.issue(invoice())
    expect(parseReceiptVerifyUrl(qrUrl)).toEqual({
      base: VERIFY,
      irn: receipt.irn,
      hash,
      device_id: DEVICE,
      counter: 1,
      signature: receipt.signature,
    })
    expect(chain.qrUrl('http://127.0.0.1:3000', receipt)).toBe(qrUrl.replace(VERIFY, 'http://127.0.0.1:3000'))
    ;(receipt.legal_monetary_total as { payable_amount: number }).payable_amount = 1
    expect((await store.list())[0]!.json).toContain('"payable_amount":1075.5')
  })

  it('refuses what the chain writes itself, and what is not JSON data, without moving the chain', async () => {
    const { chain, store } = chainOf()
    for (const member of ['device', 'signature', 'corrects'])
      await expect(chain.issue({ ...invoice(), [member]: 'x' })).rejects.toThrow(member)
    await expect(chain.issue({ ...invoice(), total: Number.NaN })).rejects.toThrow(TypeError)
    expect(await store.loadHead()).toBeUndefined()
    expect((await chain.issue(invoice())).receipt.device.counter).toBe(1)
  })

  it('refuses a key that is neither Ed25519 nor P-256, and an IRN part it cannot use, when built', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey
    expect(() => chainOf({ privateKey: rsa })).toThrow(/neither Ed25519 nor P-256/)
    expect(() => chainOf({ serviceId: '94ND-90NR' })).toThrow(/serviceId/)
    expect(() => chainOf({ invoiceNumberPrefix: 'T_1' })).toThrow(/invoiceNumberPrefix/)
    expect(() => chainOf({ invoiceNumberPrefix: 'T'.repeat(43) })).toThrow(/invoiceNumberPrefix/)
  })
})

describe('ReceiptChain.report', () => {
  it('sends the stored bytes exactly, marks what the service acknowledged, and sends nothing twice', async () => {
    const { chain, store, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    for (let i = 0; i < 5; i++) await chain.issue(invoice(i + 1))
    const held = await store.list()
    const summary = await chain.report(api)
    expect(summary).toEqual({
      sent: 5,
      reported: 5,
      duplicate: 0,
      late: [],
      rejected: [],
      forks: [],
      pending: 0,
      overdue: 0,
    })
    expect(service.bodies).toEqual([`{"receipts":[${held.map((r) => r.json).join(',')}]}`])
    expect((await store.list()).map((r) => r.state)).toEqual(Array(5).fill('REPORTED'))
    expect((await chain.report(api)).sent).toBe(0)
    expect(service.bodies).toHaveLength(1)
  })

  it('sends at most 1,000 receipts and 1 MiB a request, oldest first', async () => {
    const { chain, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    for (let i = 0; i < 2300; i++) await chain.issue(invoice(i + 1))
    const summary = await chain.report(api)
    expect(summary).toMatchObject({ sent: 2300, reported: 2300, pending: 0 })
    const counts = service.bodies.map((b) => (JSON.parse(b) as { receipts: unknown[] }).receipts.length)
    expect(counts).toEqual([1000, 1000, 300])
    const counters = service.bodies.flatMap((b) =>
      (JSON.parse(b) as { receipts: Receipt[] }).receipts.map((r) => r.device.counter),
    )
    expect(counters).toEqual(Array.from({ length: 2300 }, (_, i) => i + 1))
    // A smaller body bound splits the same receipts by bytes.
    const { chain: other, store, publicJwk: otherKey } = chainOf({ deviceId: 'dev_other' })
    service.keys.set('dev_other', otherKey)
    // Ten receipts of one length (payable amounts 1 to 9, then 1 again): three fit the bound below.
    for (let i = 0; i < 10; i++) await other.issue(invoice((i % 9) + 1))
    service.bodies.length = 0
    const one = (await store.list())[0]!.json.length
    await other.report(api, { maxBodyBytes: 3 * (one + 1) + 20 })
    expect(service.bodies.map((b) => (JSON.parse(b) as { receipts: unknown[] }).receipts.length)).toEqual([
      3, 3, 3, 1,
    ])
    for (const body of service.bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(3 * (one + 1) + 20)
  })

  for (const [what, fail, message] of [
    ['a network error', 'network', /failed: fetch failed/],
    ['a timeout', 'hang', /no answer within 50 ms/],
    ['a reply other than 200', 503, /answered 503/],
  ] as const) {
    it(`leaves everything to send again after ${what}, and the resend is the same bytes`, async () => {
      const { chain, store, publicJwk } = chainOf()
      service.keys.set(DEVICE, publicJwk)
      for (let i = 0; i < 3; i++) await chain.issue(invoice(i + 1))
      service.fail = fail
      const failed = await chain.report(api, { timeoutMs: 50 })
      expect(failed).toMatchObject({ sent: 0, reported: 0, pending: 3 })
      expect(failed.error).toMatch(message)
      expect((await store.list()).map((r) => r.state)).toEqual(['PENDING', 'PENDING', 'PENDING'])
      service.fail = undefined
      expect(await chain.report(api)).toMatchObject({ sent: 3, reported: 3, pending: 0 })
      expect(service.bodies[1]).toBe(service.bodies[0])
    })
  }

  it('takes DUPLICATE as done: a request whose answer was lost is sent again and answered with the first result', async () => {
    const { chain, store, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    await chain.issue(invoice())
    await chain.issue(invoice(2))
    // The service handled the first request, but the till never saw its answer.
    await service.fetch(`${BASE}/api/v1/receipts`, {
      method: 'POST',
      headers: { 'x-api-key': 'dev-si-key' },
      body: `{"receipts":[${(await store.list())[0]!.json}]}`,
    })
    expect(await chain.report(api)).toMatchObject({ sent: 2, reported: 1, duplicate: 1, pending: 0 })
    expect((await store.list()).map((r) => r.state)).toEqual(['DUPLICATE', 'REPORTED'])
  })

  it('keeps a receipt the answer left out to send again, and one that cannot fit any request', async () => {
    const { chain, store, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    const a = await chain.issue(invoice(1))
    await chain.issue(invoice(2))
    await chain.issue({ ...invoice(3), note: 'x'.repeat(5000) })
    service.omit.add(a.hash)
    expect(await chain.report(api, { maxBodyBytes: 4000 })).toMatchObject({
      sent: 2,
      reported: 1,
      pending: 2,
    })
    expect((await store.list()).map((r) => r.state)).toEqual(['PENDING', 'REPORTED', 'PENDING'])
    service.omit.clear()
    // The service had taken the first one: it answers with its first result now.
    expect(await chain.report(api)).toMatchObject({ sent: 2, reported: 1, duplicate: 1, pending: 0 })
  })

  it('keeps REJECTED with its reason and sends it no more; correct() issues a new receipt naming it', async () => {
    const { chain, store, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    const bad = await chain.issue(invoice(1))
    await chain.issue(invoice(2))
    service.reject.add(bad.hash)
    const summary = await chain.report(api)
    expect(summary).toMatchObject({ sent: 2, reported: 1, pending: 0 })
    expect(summary.rejected).toEqual([
      {
        hash: bad.hash,
        counter: 1,
        result: { hash: bad.hash, status: 'REJECTED', errors: [{ code: 'NG-CO-10' }] },
      },
    ])
    expect(await chain.rejected()).toEqual(summary.rejected)
    expect((await chain.report(api)).sent).toBe(0)

    // The correction: the next counter, naming the rejected hash; device, signature and corrects of a
    // receipt handed back are the chain's to write.
    const fixed = await chain.correct(bad.hash, {
      ...bad.receipt,
      legal_monetary_total: { payable_amount: 1 },
    })
    expect(fixed.receipt).toMatchObject({ corrects: bad.hash, device: { counter: 3 } })
    expect(verifyReceiptSignature(fixed.receipt, publicJwk)).toBe(true)
    expect(await chain.rejected()).toEqual([])
    expect(await chain.report(api)).toMatchObject({ sent: 1, reported: 1 })
    await expect(chain.correct(bad.hash, invoice())).rejects.toThrow(/corrected already/)
    await expect(chain.correct(fixed.hash, invoice())).rejects.toThrow(/no rejected receipt/)
    await expect(chain.correct('nope', invoice())).rejects.toThrow(/no rejected receipt/)
    expect((await store.list()).map((r) => r.state)).toEqual(['REJECTED', 'REPORTED', 'REPORTED'])
  })

  it('reports a FORK to the caller and does not send it again', async () => {
    const { chain, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    await chain.issue(invoice(1))
    // Another till restored from an old backup signs its own counter 1 with the same device.
    service.slots.set(1, 'someone-else')
    const summary = await chain.report(api)
    expect(summary.forks).toMatchObject([{ counter: 1, result: { status: 'FORK' } }])
    expect(summary.pending).toBe(0)
    expect((await chain.report(api)).sent).toBe(0)
  })

  it('names late receipts, and counts pending ones past their report_by as overdue', async () => {
    const { chain, publicJwk, time } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    const old = await chain.issue(invoice(1))
    time.set(START + 25 * 3600_000)
    await chain.issue(invoice(2))
    service.fail = 'network'
    expect(await chain.report(api)).toMatchObject({ pending: 2, overdue: 1 })
    service.fail = undefined
    service.now = START + 25 * 3600_000
    expect(await chain.report(api)).toMatchObject({ reported: 2, late: [old.hash], pending: 0, overdue: 0 })
  })

  it('joins a report() already under way rather than sending the same receipts twice', async () => {
    const { chain, publicJwk } = chainOf()
    service.keys.set(DEVICE, publicJwk)
    await chain.issue(invoice(1))
    const [a, b] = await Promise.all([chain.report(api), chain.report(api)])
    expect(a).toBe(b)
    expect(service.bodies).toHaveLength(1)
  })

  it('signs receipts whose bytes and hash a verifier rebuilds from the JSON it received', async () => {
    const { chain, publicJwk } = chainOf()
    const { receipt, hash } = await chain.issue({
      ...invoice(),
      note: 'Café € 😀',
      amount: 1e21,
      small: 1e-7,
    })
    const received = JSON.parse(JSON.stringify(receipt)) as Receipt
    expect(receiptHash(received)).toBe(hash)
    expect(Buffer.from(receiptBytes(received)).toString()).toContain('"amount":1e+21')
    expect(verifyReceiptSignature(received, publicJwk)).toBe(true)
  })
})
