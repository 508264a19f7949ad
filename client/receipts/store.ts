import { open, readFile, rename } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Where a till keeps its chain (ReceiptChain): the head (the last counter and hash) and every signed
 * receipt with what the service answered about it. A receipt is stored before issue() hands it to the
 * caller, so a receipt that was printed is one the till still holds after a crash.
 */

/** `PENDING`: not acknowledged by the service yet; the others are the service's answer (CONTRACT 23). */
export type ReceiptState = 'PENDING' | 'REPORTED' | 'DUPLICATE' | 'REJECTED' | 'FORK'

export interface StoredReceipt {
  counter: number
  hash: string
  /** The signed receipt's JSON text, exactly the bytes that are sent (never serialised again). */
  json: string
  issued_at: string
  /** The rejected receipt's hash, when this receipt corrects one. */
  corrects?: string
  state: ReceiptState
  /** The service's result for it, as it came: `errors` for REJECTED, `late`, `duplicate_of`, ... */
  result?: Record<string, unknown>
}

export interface ChainHead {
  counter: number
  last_hash: string
}

/** The service's answer about one receipt, found by its hash. */
export interface ReceiptMark {
  hash: string
  state: Exclude<ReceiptState, 'PENDING'>
  result: Record<string, unknown>
}

export interface ReceiptStore {
  /** The chain's head, or undefined before its first receipt. */
  loadHead(): Promise<ChainHead | undefined>
  /** Stores a signed receipt and makes it the head, both or neither, and durably before resolving. */
  append(receipt: StoredReceipt): Promise<void>
  /** The receipts held, in counter order. */
  list(): Promise<StoredReceipt[]>
  /** Records the service's answers; a hash the store does not hold is ignored. */
  mark(marks: ReceiptMark[]): Promise<void>
}

/** The state a store holds, built by both stores from the same operations. */
class ChainState {
  head: ChainHead | undefined
  readonly receipts = new Map<string, StoredReceipt>()

  append(receipt: StoredReceipt): void {
    this.receipts.set(receipt.hash, { ...receipt })
    this.head = { counter: receipt.counter, last_hash: receipt.hash }
  }

  mark(mark: ReceiptMark): void {
    const receipt = this.receipts.get(mark.hash)
    if (receipt) this.receipts.set(mark.hash, { ...receipt, state: mark.state, result: mark.result })
  }

  list(): StoredReceipt[] {
    return [...this.receipts.values()].sort((a, b) => a.counter - b.counter).map((r) => ({ ...r }))
  }
}

/** A store in memory: for tests, and for a till that keeps its chain elsewhere itself. */
export class MemoryReceiptStore implements ReceiptStore {
  private readonly state = new ChainState()

  async loadHead() {
    return this.state.head && { ...this.state.head }
  }

  async append(receipt: StoredReceipt) {
    this.state.append(receipt)
  }

  async list() {
    return this.state.list()
  }

  async mark(marks: ReceiptMark[]) {
    for (const mark of marks) this.state.mark(mark)
  }
}

/** One line of the file: a receipt, an answer about one, or the head (last line of a compacted file). */
type Line = { head: ChainHead } | { receipt: StoredReceipt } | { mark: ReceiptMark }

/**
 * A store in a JSON lines file, for one device's chain and one process (two processes appending to
 * one file would fork the chain). Each receipt and each batch of answers is one line appended and
 * synced to disk before the call resolves: a crash loses at most a line being written, which is a
 * receipt issue() had not yet handed back (so never printed) or answers the next report() gets again.
 * Rewrites (dropping that torn last line, compact()) write a temporary file, sync it and rename it
 * over the old one, so the file is always either the old or the new one whole.
 */
export class FileReceiptStore implements ReceiptStore {
  private readonly state = new ChainState()
  private ready: Promise<void> | undefined
  /** Writes run one at a time, in call order. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly path: string) {}

  async loadHead() {
    await this.load()
    return this.state.head && { ...this.state.head }
  }

  async list() {
    await this.load()
    return this.state.list()
  }

  append(receipt: StoredReceipt) {
    return this.write(async () => {
      await this.appendLines([{ receipt }])
      this.state.append(receipt)
    })
  }

  mark(marks: ReceiptMark[]) {
    return this.write(async () => {
      if (marks.length === 0) return
      await this.appendLines(marks.map((mark) => ({ mark })))
      for (const mark of marks) this.state.mark(mark)
    })
  }

  /**
   * Rewrites the file with the head and only the receipts still to act on: those not yet acknowledged
   * and those rejected and not yet corrected. Receipts the service holds (REPORTED, DUPLICATE, FORK)
   * and corrected ones are dropped; the counter goes on from the head.
   */
  compact() {
    return this.write(async () => {
      const corrected = new Set([...this.state.receipts.values()].flatMap((r) => r.corrects ?? []))
      const kept = this.state
        .list()
        .filter((r) => r.state === 'PENDING' || (r.state === 'REJECTED' && !corrected.has(r.hash)))
      const head = this.state.head
      // The head goes last: reading a receipt line moves the head to it, and a kept receipt may be older.
      await this.replace([...kept.map((receipt) => ({ receipt })), ...(head ? [{ head }] : [])])
      this.state.receipts.clear()
      for (const receipt of kept) this.state.receipts.set(receipt.hash, receipt)
    })
  }

  private load(): Promise<void> {
    this.ready ??= this.read()
    return this.ready
  }

  private async read(): Promise<void> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      throw error
    }
    const whole = text.slice(0, text.lastIndexOf('\n') + 1)
    const lines = whole.split('\n').filter(Boolean)
    for (const [i, line] of lines.entries()) {
      let parsed: Line
      try {
        parsed = JSON.parse(line) as Line
      } catch {
        // Only the last line can be cut short (by a crash), and a cut line has no newline after it.
        throw new Error(`${this.path}: line ${i + 1} is not JSON; the chain cannot go on from it`)
      }
      if ('head' in parsed) this.state.head = parsed.head
      else if ('receipt' in parsed) this.state.append(parsed.receipt)
      else this.state.mark(parsed.mark)
    }
    // A last line without its newline was being written when the till stopped: drop it.
    if (whole.length !== text.length) await this.replace(lines.map((line) => JSON.parse(line) as Line))
  }

  private write(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(
      () => this.load(),
      () => this.load(),
    )
    const done = run.then(step)
    this.queue = done.catch(() => undefined)
    return done
  }

  private async appendLines(lines: Line[]): Promise<void> {
    const file = await open(this.path, 'a')
    try {
      await file.writeFile(lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
      await file.datasync()
    } finally {
      await file.close()
    }
  }

  private async replace(lines: Line[]): Promise<void> {
    const temp = `${this.path}.tmp`
    const file = await open(temp, 'w')
    try {
      await file.writeFile(lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, this.path)
    // The rename is durable once the folder is synced.
    const folder = await open(dirname(this.path), 'r')
    try {
      await folder.sync()
    } finally {
      await folder.close()
    }
  }
}
