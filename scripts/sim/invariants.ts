import { eventsOfBusiness } from '#lib/events/event.ts'
import { reconcile } from '#lib/finance/reconcile.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { getAccount, getBankRequest, type TransferRecord } from '#lib/ledger/repository.ts'
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
  invoices: string[]
  subscriptions: { id: string; createdAt: string }[]
  /** Found while the run went on: a 500, a 503 without Retry-After, a replay answered differently. */
  violations: string[]
}

/**
 * The invariants of CONTRACT section 19, checked once the run is drained: money conserved (the
 * reconciliation: every balance = opening + its recorded transfers, histories and daily totals equal
 * to the ledger; and each simulated account's balance = opening - acknowledged debits + acknowledged
 * reversals), at most one effect per requestId, at most one reversal per original, every acknowledged
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
