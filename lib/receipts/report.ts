import { receiptHash, verifyReceiptSignature } from '#client/receipts/crypto.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { refusedBy } from '#lib/platform/db/transact.ts'
import { DependencyDown, DomainError, type Problem } from '#lib/platform/errors.ts'
import { type InvoiceSigner, handleInvoice } from '#lib/invoice/service.ts'
import { CALLER_ITEMS } from '#lib/invoice/sign-items.ts'
import { type ChainFork, type ChainLink, DAY_MS, withFork, withLink } from './chain.ts'
import { updateChain } from './chain-store.ts'
import { countDuplicates } from './compliance-report.ts'
import { devicesOf } from './devices.ts'
import { inParallel } from './in-parallel.ts'
import { type ParsedReceipt, parseReceipt } from './receipt-shape.ts'
import {
  bodyOf,
  claimants,
  claimWithoutInvoice,
  prevGuardPut,
  readFork,
  slotId,
  slotPut,
  slotsHeld,
  storeFork,
} from './receipt-store.ts'
import { type DeviceRecord, type ReceiptRecord, type ReceiptResult, resultOf } from './records.ts'
import { serverNowMs } from './server-time.ts'

/**
 * POST /api/v1/receipts (CONTRACT 23): one result per receipt, in order. Each receipt is decided on
 * its own, with the table's conditional writes as the only arbiter, so none waits for another and a
 * missing one never blocks those after it:
 * 1. its shape, its device (the caller's business and mode, not revoked at issued_at), its signature
 *    and, for counter 1, the genesis link: failing any, REJECTED and stored nowhere;
 * 2. its counter already held (one consistent BatchGetItem for the request): the same hash is a
 *    DUPLICATE answered with the first result, another is a FORK stored beside it;
 * 3. otherwise signed and stored as an invoice exactly as POST /app/invoice/sign stores one
 *    (lib/invoice/service.ts), with the receipt's counter and link claimed in the same transaction;
 *    refused by the invoice rules, an IRN already used or an issued_at in the future, it is REJECTED
 *    and keeps its counter;
 * 4. each device's chain updated once (./chain.ts).
 * Receipts that meet in one request (one counter twice) are decided in request order: the first ones
 * of each counter and link first, then the others.
 */

/** How far ahead of the server a receipt's issued_at may be (clocks of tills drift). */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000
/** Receipts decided at once: each is a few round trips, and one function has one connection pool. */
const WIDTH = 16

interface Candidate {
  index: number
  receipt: ParsedReceipt
  record: Omit<ReceiptRecord, 'status'>
}

interface Outcome {
  result: ReceiptResult
  link?: ChainLink
  fork?: ChainFork
}

const problem = (path: string, code: string, message: string): Problem => ({ path, code, message })
const rejected = (hash: string, errors: Problem[], irn?: string): Outcome => ({
  result: { hash, status: 'REJECTED', ...(irn ? { irn } : {}), errors },
})

const linkOf = (r: Omit<ReceiptRecord, 'status'>): ChainLink => ({
  counter: r.counter,
  hash: r.hash,
  prevHash: r.prevHash,
  issuedAt: r.issuedAt,
  late: r.late,
  receivedAt: r.receivedAt,
})

/** A device's signature and status at issued_at; undefined when the receipt is the device's. */
function refusal(
  receipt: ParsedReceipt,
  raw: object,
  device: DeviceRecord | undefined,
): Problem[] | undefined {
  const { device: part } = receipt
  if (!device)
    return [
      problem(
        'device/device_id',
        'RECEIPT_UNKNOWN_DEVICE',
        "No device of your business has this id in this key's mode: register the device (POST /api/v1/devices) and sign with its key",
      ),
    ]
  if (device.revokedAt && Date.parse(part.issued_at) >= Date.parse(device.revokedAt))
    return [
      problem(
        'device/issued_at',
        'RECEIPT_DEVICE_REVOKED',
        `The device was revoked at ${device.revokedAt}, before this receipt's issued_at: a revoked device's receipts are refused from its revocation on`,
      ),
    ]
  if (!verifyReceiptSignature(raw, device.publicKey))
    return [
      problem(
        'signature',
        'RECEIPT_SIGNATURE',
        "The signature does not verify with the device's registered key over the receipt's RFC 8785 bytes (without signature): send the receipt exactly as signed",
      ),
    ]
  if (part.counter === 1 && part.prev_hash !== device.genesisHash)
    return [
      problem(
        'device/prev_hash',
        'RECEIPT_GENESIS',
        "Counter 1 must name the device's genesis_hash as prev_hash (base64url of SHA-256 of the device_id)",
      ),
    ]
  return undefined
}

export async function reportReceipts(
  caller: ApiClientCaller,
  receipts: unknown[],
  sign: InvoiceSigner,
): Promise<ReceiptResult[]> {
  const { businessId } = caller
  const nowMs = await serverNowMs(businessId)
  const receivedAt = new Date(nowMs).toISOString()
  const parsed = receipts.map((raw) => ({
    raw,
    hash: hashOf(raw),
    parse: parseReceipt(raw),
  }))
  const devices = await devicesOf(
    businessId,
    parsed.flatMap((p) => (p.parse.ok ? [p.parse.receipt.device.device_id] : [])),
  )
  const outcomes: Outcome[] = new Array(receipts.length)
  const candidates: Candidate[] = []
  parsed.forEach(({ raw, hash, parse }, index) => {
    if (!parse.ok) {
      outcomes[index] = rejected(hash, parse.problems)
      return
    }
    if (!hash) {
      outcomes[index] = rejected(hash, [
        problem(
          '',
          'RECEIPT_SHAPE',
          'The receipt holds text that is not I-JSON (a lone surrogate): it has no RFC 8785 bytes to sign or hash',
        ),
      ])
      return
    }
    const { receipt } = parse
    const irn = typeof receipt.invoice.irn === 'string' ? receipt.invoice.irn : ''
    const refused = refusal(receipt, raw as object, devices.get(receipt.device.device_id))
    if (refused) {
      outcomes[index] = rejected(hash, refused, irn || undefined)
      return
    }
    const issuedMs = Date.parse(receipt.device.issued_at)
    candidates.push({
      index,
      receipt,
      record: {
        entity: 'RECEIPT',
        businessId,
        deviceId: receipt.device.device_id,
        counter: receipt.device.counter,
        prevHash: receipt.device.prev_hash,
        hash,
        irn,
        issuedAt: receipt.device.issued_at,
        reportBy: new Date(issuedMs + DAY_MS).toISOString(),
        receivedAt,
        late: nowMs > issuedMs + DAY_MS,
        signature: receipt.signature,
        ...(receipt.corrects ? { corrects: receipt.corrects } : {}),
        bodyGzip: bodyOf(raw),
      },
    })
  })
  const decide = decider(caller, sign, nowMs)
  // The first receipt of each counter and of each link, then the others (they meet a stored one).
  const seen = new Set<string>()
  const [firsts, others] = [[], []] as [Candidate[], Candidate[]]
  for (const c of candidates) {
    const slot = `N${slotId(c.record.deviceId, c.record.counter)}`
    const link = `P${c.record.deviceId}#${c.record.prevHash}`
    ;(seen.has(slot) || seen.has(link) ? others : firsts).push(c)
    seen.add(slot).add(link)
  }
  const held = await slotsHeld(firsts.map((c) => c.record))
  for (const batch of [firsts, others]) {
    await inParallel(batch, WIDTH, async (c) => {
      outcomes[c.index] = await decide(
        c,
        batch === firsts ? (held.get(slotId(c.record.deviceId, c.record.counter)) ?? null) : undefined,
      )
    })
  }
  await updateChains(candidates, outcomes)
  // Resends counted on the receipt they repeat, for the compliance report (./compliance-report.ts).
  await countDuplicates(candidates.map((c) => ({ record: c.record, result: outcomes[c.index]!.result })))
  return outcomes.map((o) => o.result)
}

/** One update per device touched: the links its receipts hold, and the forks they showed. */
async function updateChains(candidates: Candidate[], outcomes: Outcome[]) {
  const byDevice = new Map<string, Outcome[]>()
  for (const c of candidates) {
    const o = outcomes[c.index]!
    if (!o.link && !o.fork) continue
    byDevice.set(c.record.deviceId, [...(byDevice.get(c.record.deviceId) ?? []), o])
  }
  await inParallel([...byDevice], WIDTH, ([deviceId, found]) =>
    updateChain(deviceId, (chain) =>
      found.reduce((next, o) => {
        const linked = o.link ? withLink(next, o.link) : next
        return o.fork ? withFork(linked, o.fork) : linked
      }, chain),
    ),
  )
}

/**
 * Decides one authentic receipt. `held`: what its counter held when the request began (null: free),
 * or undefined when it must be read (a receipt that met another of the same request).
 */
function decider(caller: ApiClientCaller, sign: InvoiceSigner, nowMs: number) {
  const duplicate = (c: Candidate, first: ReceiptRecord): Outcome => ({
    result: {
      hash: c.record.hash,
      status: 'DUPLICATE',
      irn: first.irn,
      duplicate_of: first.hash,
      first: resultOf(first),
    },
    // Merged again: a chain update lost after the first report (a timeout) is repaired by its resend.
    ...(first.status !== 'FORK' ? { link: linkOf(first) } : {}),
  })

  async function fork(c: Candidate, of: string): Promise<Outcome> {
    const record: ReceiptRecord = { ...c.record, status: 'FORK', forkOf: of }
    if (!(await storeFork(record))) {
      const first = await readFork(c.record.deviceId, c.record.counter, c.record.hash)
      if (first) return duplicate(c, first)
    }
    return { result: resultOf(record), fork: { counter: c.record.counter, hashes: [of, c.record.hash] } }
  }

  /**
   * Why a claim failed: the counter or the link is someone's. `fallback`: neither is, so what refused
   * it was the IRN (used by another invoice).
   */
  async function resolve(c: Candidate, fallback?: Problem[]): Promise<Outcome> {
    const found = await settled(c)
    if (found) return found
    if (fallback) return keepRejected(c, fallback)
    throw new DependencyDown(
      'Receipts of this device were being stored at the same moment: report them again',
    )
  }

  /** The DUPLICATE or FORK this receipt is, given what holds its counter and link; undefined: neither is held. */
  async function settled(c: Candidate): Promise<Outcome | undefined> {
    const { slot, guard } = await claimants(c.record)
    if (slot?.hash === c.record.hash) return duplicate(c, slot)
    if (slot) return fork(c, slot.hash)
    if (guard && guard.hash !== c.record.hash) return fork(c, guard.hash)
    return undefined
  }

  async function keepRejected(c: Candidate, errors: Problem[]): Promise<Outcome> {
    const record: ReceiptRecord = { ...c.record, status: 'REJECTED', errors }
    if (!(await claimWithoutInvoice(record))) return resolve(c)
    return { result: resultOf(record), link: linkOf(record) }
  }

  async function submit(c: Candidate): Promise<Outcome> {
    const { record, receipt } = c
    if (Date.parse(record.issuedAt) > nowMs + FUTURE_TOLERANCE_MS)
      return keepRejected(c, [
        problem(
          'device/issued_at',
          'RECEIPT_FUTURE',
          `issued_at is more than 5 minutes ahead of the server's time (${new Date(nowMs).toISOString()}): set the device's clock right and issue a correction`,
        ),
      ])
    if (receipt.invoice.invoice_kind !== 'B2C')
      return keepRejected(c, [
        problem('invoice_kind', 'RECEIPT_NOT_B2C', 'A receipt is a B2C invoice: invoice_kind must be "B2C"'),
      ])
    const reported: ReceiptRecord = { ...record, status: 'REPORTED' }
    let offered: string | undefined
    try {
      const reply = await handleInvoice(
        { action: 'sign', sign, version: 'v2', caller, body: receipt.invoice, modeHeader: undefined },
        (would) => {
          offered = would.signed_at
          return [slotPut(reported), prevGuardPut(reported)]
        },
      )
      // A reply not of this write (the IRN's record was there, the same invoice signed before) wrote nothing.
      if (offered !== undefined && reply.signed_at === offered)
        return { result: resultOf(reported), link: linkOf(reported) }
      return resolve(c, [irnUsed(record.irn)])
    } catch (error) {
      if (refusedBy(error, CALLER_ITEMS)) return resolve(c)
      if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error
      if (error.kind === 'conflict') return keepRejected(c, [irnUsed(record.irn)])
      return keepRejected(
        c,
        error.problems?.length ? error.problems : [problem('', 'RECEIPT_INVOICE', error.message)],
      )
    }
  }

  return (c: Candidate, held: ReceiptRecord | null | undefined): Promise<Outcome> => {
    if (held === undefined) return settled(c).then((found) => found ?? submit(c))
    if (held === null) return submit(c)
    return held.hash === c.record.hash ? Promise.resolve(duplicate(c, held)) : fork(c, held.hash)
  }
}

/** The receipt's hash; '' for what has none (not an object, or text that is not I-JSON: a lone surrogate). */
function hashOf(raw: unknown): string {
  if (!raw || typeof raw !== 'object') return ''
  try {
    return receiptHash(raw)
  } catch {
    return ''
  }
}

const irnUsed = (irn: string) =>
  problem(
    'irn',
    'RECEIPT_IRN_USED',
    `IRN ${irn} is already used by another invoice or receipt: a receipt needs an IRN of its own (issue a correction with a new one)`,
  )
