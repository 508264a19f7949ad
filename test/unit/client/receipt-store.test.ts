import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ReceiptChain } from '#client/receipts/chain.ts'
import { generateDeviceKeys } from '#client/receipts/crypto.ts'
import { FileReceiptStore, MemoryReceiptStore, type StoredReceipt } from '#client/receipts/store.ts'

/**
 * The stores of ReceiptChain: a till that stops (a crash, a power cut) and starts again goes on from
 * the receipt it last handed out, with every signed receipt and every answer it had recorded.
 */

const folder = mkdtempSync(join(tmpdir(), 'receipt-store-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
let files = 0
const newPath = () => join(folder, `chain-${++files}.jsonl`)

const entry = (counter: number, extra: Partial<StoredReceipt> = {}): StoredReceipt => ({
  counter,
  hash: `h${counter}`,
  json: `{"n":${counter},"s":"é\\n"}`,
  issued_at: '2026-12-02T08:15:00+01:00',
  state: 'PENDING',
  ...extra,
})

const { privateJwk } = generateDeviceKeys('Ed25519')
const chainOn = (store: FileReceiptStore) =>
  new ReceiptChain({
    deviceId: 'dev_1',
    privateKey: privateJwk,
    store,
    serviceId: '94ND90NR',
    verifyBaseUrl: 'https://einvoice.example.ng',
  })

describe('FileReceiptStore', () => {
  it('gives a till started again the chain it had: head, receipts and answers', async () => {
    const path = newPath()
    const first = chainOn(new FileReceiptStore(path))
    const a = await first.issue({ n: 1 })
    const b = await first.issue({ n: 2 })
    await new FileReceiptStore(path).mark([
      { hash: a.hash, state: 'REPORTED', result: { status: 'REPORTED' } },
    ])

    // The process stops; a new one opens the same file.
    const store = new FileReceiptStore(path)
    expect(await store.loadHead()).toEqual({ counter: 2, last_hash: b.hash })
    const held = await store.list()
    expect(held.map((r) => [r.counter, r.state])).toEqual([
      [1, 'REPORTED'],
      [2, 'PENDING'],
    ])
    const c = await chainOn(store).issue({ n: 3 })
    expect(c.receipt.device).toMatchObject({ counter: 3, prev_hash: b.hash })
    // The exact signed text survives the round trip through the file.
    expect((await new FileReceiptStore(path).list()).map((r) => r.json)).toEqual(
      [a, b, c].map(({ receipt }) => JSON.stringify(receipt)),
    )
  })

  it('drops a last line cut short by a crash, and appends after it cleanly', async () => {
    const path = newPath()
    const store = new FileReceiptStore(path)
    await store.append(entry(1))
    appendFileSync(path, '{"receipt":{"counter":2,"hash":"h2","js')
    const reopened = new FileReceiptStore(path)
    expect(await reopened.loadHead()).toEqual({ counter: 1, last_hash: 'h1' })
    await reopened.append(entry(2))
    expect((await new FileReceiptStore(path).list()).map((r) => r.counter)).toEqual([1, 2])
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3)
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('refuses a file with a broken line before its end rather than fork the chain', async () => {
    const path = newPath()
    writeFileSync(path, `not json\n${JSON.stringify({ receipt: entry(1) })}\n`)
    await expect(new FileReceiptStore(path).loadHead()).rejects.toThrow(/line 1 is not JSON/)
  })

  it('compacts to the head and the receipts still to act on, and the counter goes on', async () => {
    const path = newPath()
    const store = new FileReceiptStore(path)
    for (let n = 1; n <= 5; n++) await store.append(entry(n, n === 5 ? { corrects: 'h3' } : {}))
    await store.mark([
      { hash: 'h1', state: 'REPORTED', result: {} },
      { hash: 'h2', state: 'REJECTED', result: { errors: [] } },
      { hash: 'h3', state: 'REJECTED', result: { errors: [] } },
      { hash: 'h4', state: 'FORK', result: {} },
    ])
    await store.compact()
    for (const s of [store, new FileReceiptStore(path)]) {
      expect((await s.list()).map((r) => [r.hash, r.state])).toEqual([
        ['h2', 'REJECTED'],
        ['h5', 'PENDING'],
      ])
      expect(await s.loadHead()).toEqual({ counter: 5, last_hash: 'h5' })
    }
    // Only the pending receipt was kept: the head still comes from the last receipt issued.
    await store.mark([{ hash: 'h5', state: 'REPORTED', result: {} }])
    await store.compact()
    expect(await new FileReceiptStore(path).loadHead()).toEqual({ counter: 5, last_hash: 'h5' })
    expect(await new FileReceiptStore(path).list()).toEqual([
      entry(2, { state: 'REJECTED', result: { errors: [] } }),
    ])
  })

  it('runs writes in call order, each durable before it resolves', async () => {
    const path = newPath()
    const store = new FileReceiptStore(path)
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append(entry(i + 1))))
    expect(await new FileReceiptStore(path).loadHead()).toEqual({ counter: 20, last_hash: 'h20' })
  })
})

describe('MemoryReceiptStore', () => {
  it('hands out copies: changing what list() returned changes nothing stored', async () => {
    const store = new MemoryReceiptStore()
    await store.append(entry(1))
    const [held] = await store.list()
    held!.state = 'REPORTED'
    expect((await store.list())[0]!.state).toBe('PENDING')
    await store.mark([{ hash: 'unknown', state: 'REPORTED', result: {} }])
    expect(await store.list()).toEqual([entry(1)])
  })
})
