import { eventsOfBusiness } from '#lib/events/event.ts'
import { reconcile } from '#lib/finance/reconcile.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { getAccount, getBankRequest, getBankSession, type TransferRecord } from '#lib/ledger/repository.ts'
import { readDelivery } from '#lib/webhooks/delivery-records.ts'
import { DEV } from '../local/dev-credentials.ts'

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
