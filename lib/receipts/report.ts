import { hashOfReceiptBytes, receiptBytes, verifySignatureBytes } from '#client/receipts/crypto.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import type { Problem } from '#lib/platform/errors.ts'
import type { InvoiceSigner } from '#lib/invoice/service.ts'
import { DAY_MS, withFork, withLink, withSibling } from './chain.ts'
import { updateChain } from './chain-store.ts'
import { countDuplicates } from './compliance-report.ts'
import { devicesOf } from './devices.ts'
import { inParallel } from './in-parallel.ts'
import { type Candidate, decide, type Outcome, problem } from './receipt-decision.ts'
import { type ParsedReceipt, parseReceipt } from './receipt-shape.ts'
import { bodyOf, slotId, slotsHeld } from './receipt-store.ts'
import { ReceiptNumbers } from './search-numbers.ts'
import type { DeviceRecord, ReceiptResult } from './records.ts'
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

/** Receipts decided at once: each is a few round trips, and one function has one connection pool. */
const WIDTH = 16

const rejected = (hash: string, errors: Problem[], irn?: string): Outcome => ({
  result: { hash, status: 'REJECTED', ...(irn ? { irn } : {}), errors },
})

/** A device's signature and status at issued_at; undefined when the receipt is the device's. */
function refusal(
  receipt: ParsedReceipt,
  bytes: Uint8Array,
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
  if (!verifySignatureBytes(bytes, receipt.signature, device.publicKey))
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

const NOT_I_JSON = problem(
  '',
  'RECEIPT_SHAPE',
  'The receipt holds text that is not I-JSON (a lone surrogate): it has no RFC 8785 bytes to sign or hash',
)

export async function reportReceipts(
  caller: ApiClientCaller,
  receipts: unknown[],
  sign: InvoiceSigner,
): Promise<ReceiptResult[]> {
  const nowMs = await serverNowMs(caller.businessId)
  const { outcomes, candidates } = await triage(caller.businessId, receipts, nowMs)
  const [firsts, others] = inRequestOrder(candidates)
  const held = await slotsHeld(firsts.map((c) => c.record))
  const heldBy = (c: Candidate) => held.get(slotId(c.record.deviceId, c.record.counter)) ?? null
  // The search numbers of the receipts to be signed, for the request at once (./search-numbers.ts).
  const numbers = await ReceiptNumbers.reserve(
    caller.businessId,
    firsts.filter((c) => !heldBy(c)).map((c) => ({ index: c.index, invoice: c.receipt.invoice })),
  )
  const context = { caller, sign, nowMs, numbers }
  try {
    for (const batch of [firsts, others]) {
      await inParallel(batch, WIDTH, async (c) => {
        outcomes[c.index] = await decide(context, c, batch === firsts ? heldBy(c) : undefined)
      })
    }
  } finally {
    await numbers.voidUnused()
  }
  await updateChains(candidates, outcomes)
  // Resends counted on the receipt they repeat, for the compliance report (./compliance-report.ts).
  await countDuplicates(candidates.map((c) => ({ record: c.record, result: outcomes[c.index]!.result })))
  return outcomes.map((o) => o.result)
}

/** Step 1: each receipt's shape, device and signature; the authentic ones become candidates. */
async function triage(businessId: string, receipts: unknown[], nowMs: number) {
  const parsed = receipts.map((raw) => ({ raw, bytes: bytesOf(raw), parse: parseReceipt(raw) }))
  const devices = await devicesOf(
    businessId,
    parsed.flatMap((p) => (p.parse.ok ? [p.parse.receipt.device.device_id] : [])),
  )
  const outcomes: Outcome[] = new Array(receipts.length)
  const candidates: Candidate[] = []
  parsed.forEach(({ raw, bytes, parse }, index) => {
    // The receipt is serialised once: its hash and its signature are over these bytes.
    const hash = bytes ? hashOfReceiptBytes(bytes) : ''
    if (!parse.ok) outcomes[index] = rejected(hash, parse.problems)
    else if (!bytes) outcomes[index] = rejected(hash, [NOT_I_JSON])
    else {
      const { receipt } = parse
      const refused = refusal(receipt, bytes, devices.get(receipt.device.device_id))
      const candidate = candidateOf(index, receipt, raw, hash, businessId, nowMs)
      if (refused) outcomes[index] = rejected(hash, refused, candidate.record.irn || undefined)
      else candidates.push(candidate)
    }
  })
  return { outcomes, candidates }
}

function candidateOf(
  index: number,
  receipt: ParsedReceipt,
  raw: unknown,
  hash: string,
  businessId: string,
  nowMs: number,
): Candidate {
  const issuedMs = Date.parse(receipt.device.issued_at)
  return {
    index,
    receipt,
    record: {
      entity: 'RECEIPT',
      businessId,
      deviceId: receipt.device.device_id,
      counter: receipt.device.counter,
      prevHash: receipt.device.prev_hash,
      hash,
      irn: typeof receipt.invoice.irn === 'string' ? receipt.invoice.irn : '',
      issuedAt: receipt.device.issued_at,
      reportBy: new Date(issuedMs + DAY_MS).toISOString(),
      receivedAt: new Date(nowMs).toISOString(),
      late: nowMs > issuedMs + DAY_MS,
      signature: receipt.signature,
      ...(receipt.corrects ? { corrects: receipt.corrects } : {}),
      bodyGzip: bodyOf(raw),
    },
  }
}

/** The first receipt of each counter and of each link, then the others (they meet a stored one). */
function inRequestOrder(candidates: Candidate[]): [Candidate[], Candidate[]] {
  const seen = new Set<string>()
  const [firsts, others] = [[], []] as [Candidate[], Candidate[]]
  for (const c of candidates) {
    const slot = `N${slotId(c.record.deviceId, c.record.counter)}`
    const link = `P${c.record.deviceId}#${c.record.prevHash}`
    ;(seen.has(slot) || seen.has(link) ? others : firsts).push(c)
    seen.add(slot).add(link)
  }
  return [firsts, others]
}

/** One update per device touched: the links its receipts hold, and the forks they showed. */
async function updateChains(candidates: Candidate[], outcomes: Outcome[]) {
  const byDevice = new Map<string, Outcome[]>()
  for (const c of candidates) {
    const o = outcomes[c.index]!
    if (!o.link && !o.fork && !o.sibling) continue
    byDevice.set(c.record.deviceId, [...(byDevice.get(c.record.deviceId) ?? []), o])
  }
  await inParallel([...byDevice], WIDTH, ([deviceId, found]) =>
    updateChain(deviceId, (chain) =>
      found.reduce((next, o) => {
        const linked = o.link ? withLink(next, o.link) : next
        const forked = o.fork ? withFork(linked, o.fork) : linked
        return o.sibling ? withSibling(forked, o.sibling) : forked
      }, chain),
    ),
  )
}

/** The receipt's RFC 8785 bytes; undefined for what has none (not an object, or text that is not I-JSON: a lone surrogate). */
function bytesOf(raw: unknown): Uint8Array | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  try {
    return receiptBytes(raw)
  } catch {
    return undefined
  }
}
