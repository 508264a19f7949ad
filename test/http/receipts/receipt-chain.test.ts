import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ReceiptChain } from '#client/receipts/chain.ts'
import { generateDeviceKeys, verifyReceiptSignature } from '#client/receipts/crypto.ts'
import { FileReceiptStore } from '#client/receipts/store.ts'
import { parseReceiptVerifyUrl } from '#client/receipts/verify-url.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { b2cInvoice } from '../../support/receipts.ts'

/**
 * CONTRACT 23 and issue 44's "done when": the client package's ReceiptChain signs receipts offline that
 * the service accepts, for both key types, and resends exactly the bytes it signed after an answer
 * that was lost, which the service answers as DUPLICATE with the first result.
 */

let api: TestApi
let live: DevClients
const folder = mkdtempSync(join(tmpdir(), 'receipt-chain-http-'))
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  rmSync(folder, { recursive: true, force: true })
})

/** A B2C invoice without the members the chain writes (IRN, issue date and time). */
function saleOf() {
  const { irn: _irn, issue_date: _date, issue_time: _time, ...sale } = b2cInvoice()
  return sale
}

async function tillOf(algorithm: 'Ed25519' | 'P-256', file: string) {
  const { privateJwk, publicJwk } = generateDeviceKeys(algorithm)
  const registered = await live.admin.post<any>('/api/v1/devices', {
    name: `Till ${algorithm}`,
    public_key: publicJwk,
  })
  expect(registered.status).toBe(201)
  const { device_id, genesis_hash } = registered.body.data
  const chain = new ReceiptChain({
    deviceId: device_id,
    privateKey: privateJwk,
    store: new FileReceiptStore(join(folder, file)),
    serviceId: DEV.supplier.serviceId,
    verifyBaseUrl: api.url,
  })
  return { chain, device_id, genesis_hash, publicJwk }
}

describe('POST /api/v1/receipts: receipts a ReceiptChain signed offline', () => {
  for (const algorithm of ['Ed25519', 'P-256'] as const) {
    it(`are reported, chained and found as invoices (${algorithm})`, async () => {
      const { chain, device_id, genesis_hash, publicJwk } = await tillOf(algorithm, `${algorithm}.jsonl`)
      const issued = []
      for (let i = 0; i < 3; i++) issued.push(await chain.issue(saleOf()))
      expect(issued[0]!.receipt.device.prev_hash).toBe(genesis_hash)
      for (const { receipt } of issued) expect(verifyReceiptSignature(receipt, publicJwk)).toBe(true)

      const summary = await chain.report(live.si)
      expect(summary).toEqual({
        sent: 3,
        reported: 3,
        duplicate: 0,
        late: [],
        rejected: [],
        forks: [],
        pending: 0,
        overdue: 0,
      })
      const found = await live.app.get<any>(`/api/v1/invoice/confirm/${issued[2]!.receipt.irn}`)
      expect(found.status).toBe(200)
      const state = await live.admin.get<any>(`/api/v1/devices/${device_id}/chain`)
      expect(state.body.data).toMatchObject({
        last_counter: 3,
        last_hash: issued[2]!.hash,
        verified_through: 3,
        gaps: [],
        forks: [],
      })
      expect(parseReceiptVerifyUrl(issued[0]!.qrUrl)).toMatchObject({
        device_id,
        counter: 1,
        hash: issued[0]!.hash,
      })
    })
  }

  it('resends the stored bytes after a lost answer, and the service answers DUPLICATE', async () => {
    const { chain } = await tillOf('Ed25519', 'lost-answer.jsonl')
    const { receipt, hash } = await chain.issue(saleOf())
    // The service takes the receipt, but the till never sees the answer.
    expect((await live.si.post<any>('/api/v1/receipts', { receipts: [receipt] })).body.data).toMatchObject([
      { hash, status: 'REPORTED' },
    ])
    const summary = await chain.report(live.si)
    expect(summary).toMatchObject({ sent: 1, reported: 0, duplicate: 1, pending: 0 })
  })

  it('keeps a REJECTED receipt with its reason, and its correction names it and is reported', async () => {
    const { chain } = await tillOf('P-256', 'rejected.jsonl')
    // An IRN of another business's service id: the service refuses the receipt.
    const bad = await chain.issue({ ...saleOf(), irn: `SALE1-${DEV.other.serviceId}-20261202` })
    const summary = await chain.report(live.si)
    expect(summary.rejected).toMatchObject([{ hash: bad.hash, counter: 1, result: { status: 'REJECTED' } }])
    const fixed = await chain.correct(bad.hash, saleOf())
    expect(fixed.receipt).toMatchObject({ corrects: bad.hash, device: { counter: 2, prev_hash: bad.hash } })
    expect(await chain.report(live.si)).toMatchObject({ sent: 1, reported: 1, pending: 0 })
  })
})
