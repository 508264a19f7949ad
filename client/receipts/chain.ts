import { createPrivateKey, type JsonWebKey, KeyObject } from 'node:crypto'
import type { ApiClient } from '../api-client.ts'
import {
  canonicalJson,
  genesisHash,
  hashOfReceiptBytes,
  publicJwkOf,
  receiptBytes,
  receiptHash,
  signReceiptBytes,
} from './crypto.ts'
import type { ReceiptMark, ReceiptStore, StoredReceipt } from './store.ts'
import { receiptVerifyUrl } from './verify-url.ts'

/**
 * A till's chain of B2C receipts (CONTRACT 23), with no network: issue() builds, chains, signs and
 * stores a receipt and hands back its QR URL; report() sends what the service has not acknowledged
 * when the network is back, exactly the bytes that were signed; a receipt is never made twice.
 */

/** The device's link of a receipt: which device, its place in the chain, and when it was issued. */
export interface DeviceLink {
  device_id: string
  counter: number
  prev_hash: string
  /** ISO 8601 with the till's offset, to the second: `2026-12-02T08:15:00+01:00`. */
  issued_at: string
}

/** A signed receipt: the invoice record with its device link, maybe a correction, and the signature. */
export type Receipt = Record<string, unknown> & {
  irn: string
  invoice_kind: string
  device: DeviceLink
  corrects?: string
  signature: string
}

export interface IssuedReceipt {
  receipt: Receipt
  hash: string
  /** The URL the receipt's QR code carries (the service's verification page); the till's printer library draws it. */
  qrUrl: string
}

export interface ReceiptChainOptions {
  /** The device id the service gave at registration (`POST /api/v1/devices`). */
  deviceId: string
  /** The device's private key (Ed25519 or P-256), as a KeyObject or a private JWK. */
  privateKey: KeyObject | JsonWebKey
  store: ReceiptStore
  /** The business's service id: the middle of the IRNs the till builds. */
  serviceId: string
  /** The service's public URL, the base of the receipts' QR URLs. */
  verifyBaseUrl: string
  /**
   * The start of the IRNs' invoice numbers (letters and digits, at most 42), unique to the device in
   * its business; the counter, 8 digits or more, follows. By default the device id's letters and digits.
   */
  invoiceNumberPrefix?: string
  /** The offset of `issued_at` and of the issue date, in minutes; 60 (Lagos, which has no summer time) by default. */
  utcOffsetMinutes?: number
  /** The clock (tests). */
  now?: () => Date
}

/** What report() did: counts, the receipts the caller must act on, and why it stopped if it did. */
export interface ReportSummary {
  /** Receipts sent in requests the service answered. */
  sent: number
  reported: number
  duplicate: number
  /** Hashes of receipts reported after their `report_by`. */
  late: string[]
  /** Receipts the service refused, with its reasons: correct each with correct(hash, invoice). */
  rejected: ReceiptOutcome[]
  /** Receipts the service kept as a fork of the chain (another receipt holds the counter or link). */
  forks: ReceiptOutcome[]
  /** Receipts still not acknowledged, to send again. */
  pending: number
  /** Of those, the ones issued more than 24 h ago (past their `report_by`). */
  overdue: number
  /** Why reporting stopped early (network error, timeout, a reply other than 200), if it did. */
  error?: string
}

export interface ReceiptOutcome {
  hash: string
  counter: number
  result: Record<string, unknown>
}

export interface ReportOptions {
  /** How long one request may take before it counts as failed; 30 s by default. */
  timeoutMs?: number
  /** Receipts a request (1,000, the service's bound, by default). */
  batchSize?: number
  /** Bytes a request body (1 MiB, the service's bound, by default). */
  maxBodyBytes?: number
}

const MAX_BATCH = 1000
const MAX_BODY_BYTES = 1024 * 1024
const DAY_MS = 24 * 60 * 60 * 1000
const ANSWERS = new Set<string>(['REPORTED', 'DUPLICATE', 'REJECTED', 'FORK'])
const BODY_HEAD = '{"receipts":['
const BODY_TAIL = ']}'

/** `issued_at`: the instant at the offset, to the second, with the offset written (`+01:00`). */
export function isoWithOffset(instant: Date, offsetMinutes: number): string {
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offsetMinutes * 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  return `${local.toISOString().slice(0, 19)}${offset}`
}

/** The URL of a signed receipt's QR code: the service's verification page for it. */
export function receiptQrUrl(baseUrl: string, receipt: Receipt): string {
  return receiptVerifyUrl(baseUrl, {
    irn: receipt.irn,
    hash: receiptHash(receipt),
    device_id: receipt.device.device_id,
    counter: receipt.device.counter,
    signature: receipt.signature,
  })
}

export class ReceiptChain {
  readonly deviceId: string
  private readonly key: KeyObject
  private readonly store: ReceiptStore
  private readonly serviceId: string
  private readonly verifyBaseUrl: string
  private readonly prefix: string
  private readonly offsetMinutes: number
  private readonly now: () => Date
  /** issue() and correct() run one at a time, so no two receipts get one counter. */
  private signing: Promise<unknown> = Promise.resolve()
  /** The report() under way: a second call joins it rather than sending the same receipts twice. */
  private reporting: Promise<ReportSummary> | undefined

  constructor(options: ReceiptChainOptions) {
    this.deviceId = options.deviceId
    this.key =
      options.privateKey instanceof KeyObject
        ? options.privateKey
        : createPrivateKey({ key: options.privateKey, format: 'jwk' })
    this.store = options.store
    if (!/^[A-Za-z0-9]+$/.test(options.serviceId))
      throw new TypeError('ReceiptChain: serviceId must be the business service id (letters and digits)')
    this.serviceId = options.serviceId
    this.verifyBaseUrl = options.verifyBaseUrl
    this.prefix = options.invoiceNumberPrefix ?? options.deviceId.replace(/[^A-Za-z0-9]/g, '').slice(-42)
    // An IRN's invoice number is 2 to 50 letters and digits (lib/irn/schemas.ts in the service).
    if (!/^[A-Za-z0-9]{0,42}$/.test(this.prefix))
      throw new TypeError('ReceiptChain: invoiceNumberPrefix must be at most 42 letters and digits')
    this.offsetMinutes = options.utcOffsetMinutes ?? 60
    this.now = options.now ?? (() => new Date())
    // Signing once now finds a key of the wrong kind at construction, not at the first sale.
    signReceiptBytes(new Uint8Array(), this.key)
  }

  /** The device's public JWK, as it is registered (`POST /api/v1/devices` `{name, public_key}`). */
  get publicJwk(): JsonWebKey {
    return publicJwkOf(this.key)
  }

  /**
   * Issues a receipt for a v2 invoice record: adds `invoice_kind: "B2C"`, the IRN, the issue date and
   * time when absent, and the device link; signs it and stores it before answering.
   */
  async issue(invoice: Record<string, unknown>): Promise<IssuedReceipt> {
    for (const member of ['device', 'signature', 'corrects'])
      if (member in invoice)
        throw new TypeError(
          `ReceiptChain.issue: the invoice must not carry ${member} (the chain writes it; a correction is correct())`,
        )
    return this.serially(() => this.sign(invoice))
  }

  /**
   * Issues the correction of a receipt the service rejected: a new receipt (the next counter) naming
   * the rejected one's hash in `corrects`. The rejected receipt keeps its counter.
   */
  correct(rejectedHash: string, invoice: Record<string, unknown>): Promise<IssuedReceipt> {
    return this.serially(async () => {
      const held = await this.store.list()
      const rejected = held.find((r) => r.hash === rejectedHash)
      if (rejected?.state !== 'REJECTED')
        throw new Error(`ReceiptChain.correct: ${rejectedHash} is no rejected receipt of this device`)
      const correction = held.find((r) => r.corrects === rejectedHash)
      if (correction)
        throw new Error(`ReceiptChain.correct: ${rejectedHash} is corrected already by ${correction.hash}`)
      const { device: _d, signature: _s, corrects: _c, ...rest } = invoice
      return this.sign(rest, rejectedHash)
    })
  }

  /** The rejected receipts not yet corrected, with the service's reasons. */
  async rejected(): Promise<ReceiptOutcome[]> {
    const held = await this.store.list()
    const corrected = new Set(held.flatMap((r) => r.corrects ?? []))
    return held
      .filter((r) => r.state === 'REJECTED' && !corrected.has(r.hash))
      .map((r) => ({ hash: r.hash, counter: r.counter, result: r.result ?? {} }))
  }

  /** The URL of a receipt's QR code on the service at `baseUrl`. */
  qrUrl(baseUrl: string, receipt: Receipt): string {
    return receiptQrUrl(baseUrl, receipt)
  }

  /**
   * Sends every receipt not yet acknowledged to `POST /api/v1/receipts`, oldest first, in batches of
   * at most 1,000 and 1 MiB, each body joined from the stored texts (nothing parsed or serialised
   * again), and records each answer. A network error, a timeout or a reply other than 200 stops it and
   * leaves the rest to send again: the service answers a receipt it has already with its first result.
   */
  report(api: ApiClient, options: ReportOptions = {}): Promise<ReportSummary> {
    this.reporting ??= this.sendAll(api, options).finally(() => {
      this.reporting = undefined
    })
    return this.reporting
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.signing.then(step, step)
    this.signing = run.catch(() => undefined)
    return run
  }

  private async sign(invoice: Record<string, unknown>, corrects?: string): Promise<IssuedReceipt> {
    const head = await this.store.loadHead()
    const counter = (head?.counter ?? 0) + 1
    const issued_at = isoWithOffset(this.now(), this.offsetMinutes)
    const day = issued_at.slice(0, 10)
    const unsigned: Record<string, unknown> = {
      ...invoice,
      invoice_kind: invoice.invoice_kind ?? 'B2C',
      irn:
        invoice.irn ??
        `${this.prefix}${String(counter).padStart(8, '0')}-${this.serviceId}-${day.replaceAll('-', '')}`,
      issue_date: invoice.issue_date ?? day,
      issue_time: invoice.issue_time ?? issued_at.slice(11, 19),
      ...(corrects === undefined ? {} : { corrects }),
      device: {
        device_id: this.deviceId,
        counter,
        prev_hash: head?.last_hash ?? genesisHash(this.deviceId),
        issued_at,
      },
    }
    const bytes = receiptBytes(unsigned)
    const hash = hashOfReceiptBytes(bytes)
    const json = canonicalJson({ ...unsigned, signature: signReceiptBytes(bytes, this.key) })
    await this.store.append({
      counter,
      hash,
      json,
      issued_at,
      ...(corrects === undefined ? {} : { corrects }),
      state: 'PENDING',
    })
    // The caller gets its own copy of what was signed: changing it changes nothing stored.
    const receipt = JSON.parse(json) as Receipt
    return { receipt, hash, qrUrl: receiptQrUrl(this.verifyBaseUrl, receipt) }
  }

  private async sendAll(api: ApiClient, options: ReportOptions): Promise<ReportSummary> {
    const batchSize = Math.min(options.batchSize ?? MAX_BATCH, MAX_BATCH)
    const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES
    const timeoutMs = options.timeoutMs ?? 30_000
    const summary: ReportSummary = {
      sent: 0,
      reported: 0,
      duplicate: 0,
      late: [],
      rejected: [],
      forks: [],
      pending: 0,
      overdue: 0,
    }
    const pending = (await this.store.list()).filter((r) => r.state === 'PENDING')
    for (const batch of batches(pending, batchSize, maxBodyBytes)) {
      if (batch.length === 0) continue
      const body = `${BODY_HEAD}${batch.map((r) => r.json).join(',')}${BODY_TAIL}`
      let results: unknown
      try {
        const reply = await api.request<{ data?: unknown }>(
          'POST',
          '/api/v1/receipts',
          body,
          {},
          AbortSignal.timeout(timeoutMs),
        )
        if (reply.status !== 200) {
          summary.error = `POST /api/v1/receipts answered ${reply.status}: ${reply.text.slice(0, 300)}`
          break
        }
        // Area A's envelope: `data` holds one result per receipt, in order.
        results = reply.body?.data
      } catch (error) {
        const name = (error as Error).name
        summary.error =
          name === 'TimeoutError'
            ? `POST /api/v1/receipts had no answer within ${timeoutMs} ms`
            : `POST /api/v1/receipts failed: ${(error as Error).message}`
        break
      }
      summary.sent += batch.length
      await this.store.mark(this.answers(batch, results, summary))
    }
    const now = this.now().getTime()
    for (const r of await this.store.list()) {
      if (r.state !== 'PENDING') continue
      summary.pending++
      if (Date.parse(r.issued_at) + DAY_MS < now) summary.overdue++
    }
    return summary
  }

  /** The answers of one batch, found by hash; a receipt without one stays PENDING. */
  private answers(batch: StoredReceipt[], results: unknown, summary: ReportSummary): ReceiptMark[] {
    const byHash = new Map<string, Record<string, unknown>>()
    for (const result of Array.isArray(results) ? results : []) {
      if (typeof result === 'object' && result !== null && typeof result.hash === 'string')
        byHash.set(result.hash, result as Record<string, unknown>)
    }
    const marks: ReceiptMark[] = []
    for (const receipt of batch) {
      const result = byHash.get(receipt.hash)
      const state = result?.status
      if (!result || typeof state !== 'string' || !ANSWERS.has(state)) continue
      marks.push({ hash: receipt.hash, state: state as ReceiptMark['state'], result })
      const outcome = { hash: receipt.hash, counter: receipt.counter, result }
      if (state === 'REPORTED') summary.reported++
      else if (state === 'DUPLICATE') summary.duplicate++
      else if (state === 'REJECTED') summary.rejected.push(outcome)
      else summary.forks.push(outcome)
      if (result.late === true) summary.late.push(receipt.hash)
    }
    return marks
  }
}

/**
 * The receipts in request-sized groups, in order: at most `size` each and `maxBytes` of body. A receipt
 * too large for any request is left out (it stays PENDING; the service would refuse it whole).
 */
function* batches(receipts: StoredReceipt[], size: number, maxBytes: number): Generator<StoredReceipt[]> {
  let batch: StoredReceipt[] = []
  let bytes = BODY_HEAD.length + BODY_TAIL.length
  for (const receipt of receipts) {
    const length = Buffer.byteLength(receipt.json) + 1
    if (BODY_HEAD.length + BODY_TAIL.length + length > maxBytes) continue
    if (batch.length === size || bytes + length > maxBytes) {
      yield batch
      batch = []
      bytes = BODY_HEAD.length + BODY_TAIL.length
    }
    batch.push(receipt)
    bytes += length
  }
  yield batch
}
