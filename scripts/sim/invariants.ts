import { eventsOfBusiness } from '#lib/events/event.ts'
import { reconcile } from '#lib/finance/reconcile.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { getAccount, getBankRequest, getBankSession, type TransferRecord } from '#lib/ledger/repository.ts'
import { chainView } from '#lib/receipts/chain.ts'
import { readChain } from '#lib/receipts/chain-store.ts'
import { readDelivery } from '#lib/webhooks/delivery-records.ts'
import { DEV } from '../local/dev-credentials.ts'

/** A till of the simulation: what it signed and what each receipt was answered. */
export interface SimTillModel {
  deviceId: string
  /** Its chain's last counter signed (every counter up to it sent by the end of the run). */
  lastCounter: number
  /** Counters at which it also sent a regenerated retry (same prev_hash, other bytes). */
  retried: Set<number>
  /** By hash: the counter, the IRN, and each answer's status (a DUPLICATE as its first result's). */
  receipts: Map<string, { counter: number; irn: string; statuses: string[] }>
}

/** What the workload was told, which the table must agree with. */
export interface Model {
  /** Opening balance of each simulated account. */
  accounts: Map<string, number>
  transfers: Map<
    string,
    {
      accountNumber: string
      amountKobo: number
      body: Record<string, unknown> & { requestId: string }
      status: number
      reply: string
      succeeded: boolean
      /** Reversals of it acknowledged with 00. */
      reversals: number
    }
  >
  reversals: { requestId: string; original: string }[]
  /** Session id -> the requestId of the transfer answered with it. */
  sessions: Map<string, string>
  /** RequestIds (and their session ids) a status query found never received: final 25s. */
  neverReceived: { requestId: string; sessionId?: string; bySession?: boolean }[]
  /** Transfers sent with a session id another requestId had: each refused with 26. */
  sessionReuses: string[]
  invoices: string[]
  /** Each simulated till's receipts (CONTRACT 23), as the till signed them and the service answered them. */
  tills: SimTillModel[]
  subscriptions: { id: string; createdAt: string }[]
  /** Found while the run went on: a 500, a 503 without Retry-After, a replay answered differently. */
  violations: string[]
}

/**
 * The invariants of CONTRACT section 19, checked once the run is drained: money conserved (the
 * reconciliation: every balance = opening + its recorded transfers, histories and daily totals equal
 * to the ledger; and each simulated account's balance = opening - acknowledged debits + acknowledged
 * reversals), at most one effect per requestId and per session id, no debit after a final 25 (a
 * never-received requestId stays recorded as such), at most one reversal per original, every acknowledged
 * invoice there exactly once with exactly one event, every event delivered at least once to every
 * subscription that existed when it happened, no delivery claim held past its timeout.
 */
export async function checkInvariants(
  model: Model,
  seen: { received: Map<string, number>; now: number },
): Promise<{ checked: number; violations: string[] }> {
  const violations: string[] = []
  let checked = 0
  const check = (ok: boolean, message: () => string) => {
    checked++
    if (!ok) violations.push(message())
  }

  const report = await reconcile({ segments: 4, settleMs: 0 })
  check(
    report.differences.length === 0,
    () => `reconciliation: ${report.differences.map((d) => `${d.subject}: ${d.message}`).join('; ')}`,
  )
  checked += report.accounts + report.merchants + report.transfers

  const expected = new Map(model.accounts)
  for (const [requestId, t] of model.transfers) {
    const record = (await getBankRequest(DEV.switch.clientId, requestId)) as TransferRecord | undefined
    if (t.succeeded) {
      expected.set(t.accountNumber, expected.get(t.accountNumber)! - (t.reversals ? 0 : t.amountKobo))
      check(
        record !== undefined && record.status !== 'FAILED',
        () => `transfer ${requestId}: acknowledged 00, recorded ${record?.status ?? 'nowhere'}`,
      )
      check(t.reversals <= 1, () => `transfer ${requestId}: reversed ${t.reversals} times`)
      check(
        (record?.status === 'REVERSED') === (t.reversals === 1),
        () => `transfer ${requestId}: ${t.reversals} reversals acknowledged, recorded ${record?.status}`,
      )
    } else {
      check(
        record === undefined || record.status === 'FAILED',
        () =>
          `transfer ${requestId}: answered ${t.status} ${t.reply.slice(0, 80)}, yet recorded ${record?.status}`,
      )
    }
  }
  await checkStatusQueries(model, check)
  await checkReceipts(model, seen.now, check)
  for (const [accountNumber, balance] of expected) {
    const account = await getAccount(accountNumber)
    check(
      account?.balanceKobo === balance,
      () => `account ${accountNumber}: balance ${account?.balanceKobo}, acknowledged effects say ${balance}`,
    )
  }

  const events = (await eventsOfBusiness(DEV.supplier.businessId)).filter((e) => e.type === 'invoice.signed')
  const perIrn = new Map<string, number>()
  for (const e of events) {
    const irn = String((e.data as { irn?: string }).irn)
    perIrn.set(irn, (perIrn.get(irn) ?? 0) + 1)
  }
  for (const irn of model.invoices) {
    const record = await readInvoiceRecord(irn)
    check(record !== undefined, () => `invoice ${irn}: acknowledged, not stored`)
    check(perIrn.get(irn) === 1, () => `invoice ${irn}: ${perIrn.get(irn) ?? 0} invoice.signed events`)
  }

  for (const s of model.subscriptions) {
    for (const e of events.filter((x) => x.created_at >= s.createdAt)) {
      const d = await readDelivery(s.id, e.id)
      check(
        d?.status === 'DELIVERED',
        () =>
          `event ${e.id} to subscription ${s.id}: delivery ${d ? `${d.status} after ${d.attempts} attempts` : 'never made'}`,
      )
      check((seen.received.get(e.id) ?? 0) >= 1, () => `event ${e.id}: never answered 2xx by the receiver`)
      check(
        d?.claimedUntil === undefined || d.claimedUntil <= seen.now,
        () =>
          `delivery of ${e.id} to ${s.id}: claimed until ${d?.claimedUntil}, after the run's end ${seen.now}`,
      )
    }
  }
  return { checked, violations }
}

/**
 * CONTRACT 24 in the table: a requestId or session id a status query found never received is
 * recorded so (NOT_RECEIVED) and nothing else, so no late original moved money under it (the
 * balances above would show it too); each session id answered is held by the one requestId answered
 * with it; a session id sent again under another requestId recorded nothing.
 */
async function checkStatusQueries(model: Model, check: (ok: boolean, message: () => string) => void) {
  const client = DEV.switch.clientId
  for (const lost of model.neverReceived) {
    const record = await getBankRequest(client, lost.requestId)
    check(
      record === undefined || record.kind === 'NOT_RECEIVED',
      () =>
        `never-received ${lost.requestId}: a final 25, yet recorded as ${record?.kind} ${JSON.stringify(record && 'status' in record ? record.status : '')}`,
    )
    if (lost.bySession && lost.sessionId) {
      const session = await getBankSession(client, lost.sessionId)
      check(
        session?.kind === 'NOT_RECEIVED',
        () => `never-received session id ${lost.sessionId}: recorded as ${session?.kind ?? 'nothing'}`,
      )
    }
  }
  for (const [sessionId, requestId] of model.sessions) {
    if (model.transfers.get(requestId)?.status !== 200) continue
    const session = await getBankSession(client, sessionId)
    check(
      session?.kind === 'SESSION' && session.requestId === requestId,
      () =>
        `session id ${sessionId}: answered for ${requestId}, held by ${session && 'requestId' in session ? session.requestId : session?.kind}`,
    )
  }
  for (const requestId of model.sessionReuses) {
    const record = await getBankRequest(client, requestId)
    check(
      record === undefined,
      () => `${requestId} reused a session id: refused with 26, yet recorded ${record?.kind}`,
    )
  }
}

/**
 * CONTRACT 23 under the faults: every till's chain whole (no gap once everything was sent, verified
 * through its last counter, a regenerated retry's counter among the forks); each receipt answered the
 * same every time (a DUPLICATE with the first result); at each counter exactly one receipt REPORTED
 * and the others FORK, none REJECTED; a REPORTED receipt's invoice stored, a FORK's not.
 */
async function checkReceipts(model: Model, now: number, check: (ok: boolean, message: () => string) => void) {
  for (const till of model.tills) {
    const chain = chainView(await readChain(till.deviceId), now)
    const name = `till ${till.deviceId}`
    check(
      chain.last_counter === till.lastCounter &&
        chain.verified_through === till.lastCounter &&
        chain.gaps.length === 0,
      () =>
        `${name}: signed 1..${till.lastCounter}, chain last ${chain.last_counter}, verified through ${chain.verified_through}, gaps ${JSON.stringify(chain.gaps)}`,
    )
    for (const counter of till.retried)
      check(
        chain.forks.some((f) => f.counter === counter),
        () => `${name}: a regenerated retry at ${counter}, not among the forks`,
      )
    const reportedAt = new Map<number, number>()
    for (const [hash, receipt] of till.receipts) {
      const [first, ...later] = receipt.statuses
      check(
        first !== undefined && later.every((s) => s === first),
        () =>
          `${name} receipt ${hash.slice(0, 8)} (counter ${receipt.counter}): answered ${receipt.statuses.join(', ') || 'never'}`,
      )
      check(first === 'REPORTED' || first === 'FORK', () => `${name} receipt at ${receipt.counter}: ${first}`)
      if (first === 'REPORTED') reportedAt.set(receipt.counter, (reportedAt.get(receipt.counter) ?? 0) + 1)
      const invoice = await readInvoiceRecord(receipt.irn)
      check(
        (invoice !== undefined) === (first === 'REPORTED'),
        () =>
          `${name} receipt at ${receipt.counter}, ${first}: its invoice ${invoice ? 'stored' : 'not stored'}`,
      )
    }
    for (let counter = 1; counter <= till.lastCounter; counter++)
      check(
        (reportedAt.get(counter) ?? 0) === 1,
        () => `${name}: ${reportedAt.get(counter) ?? 0} receipts REPORTED at counter ${counter}`,
      )
  }
}
