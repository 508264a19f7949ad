import type { ApiClient, ClientReply } from '#client/api-client.ts'
import { openAccount } from '#lib/ledger/repository.ts'
import { buildInvoice } from '../../test/fixtures/invoices/build.ts'
import { b2cInvoice, hashOf, type Receipt, registerTill, type Till } from '../../test/support/receipts.ts'
import { DEV } from '../local/dev-credentials.ts'
import type { Model, SimTillModel } from './invariants.ts'

/**
 * The simulation's workload over the four areas: transfers (half with a NIP session id), replays of
 * them, reversals (some of an original already reversed), balance enquiries, transfers whose reply is
 * lost and which a status query settles, late originals of a requestId a status query found never
 * received, a session id under a second requestId (Area B); signed invoices and tills' receipts (sent
 * out of order, resent, and regenerated after a lost reply: CONTRACT 23) (Area A), whose events go
 * to the webhook subscriptions (Area C); and the run's own steps (consumers pumped, the clock moved).
 * A request refused for the faults (503 with Retry-After, or 429) is sent again as a client would,
 * the same body, until it is answered; after 40 refusals once more with the faults off (a table back
 * from an outage). Every definite answer is kept in the model the invariants check.
 */
export interface Workload {
  setup(): Promise<void>
  /** After the operations: what is still held back is sent (a till reports everything it holds). */
  flush(): Promise<void>
  teardown(): Promise<void>
  operation(i: number): Promise<void>
  counts: Record<string, number>
  /** Milliseconds spent in each kind of operation. */
  timing: Record<string, number>
}

/** Each reply's own trace id and time: the fields a replay answers afresh. */
const PER_REQUEST = new Set(['traceId', 'timestamp'])

/** The top-level fields whose values differ between two JSON replies (whatever their order). */
function differences(first: string, again: string): string[] {
  let a: Record<string, unknown>
  let b: Record<string, unknown>
  try {
    a = JSON.parse(first)
    b = JSON.parse(again)
  } catch {
    return first === again ? [] : ['(not JSON)']
  }
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => !PER_REQUEST.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  )
}

/** What the workload reads of a reply. */
interface Answer {
  responseCode?: string
  data?: { id: string; created_at: string }
}

export const SIM_ACCOUNTS = ['5100000001', '5100000002', '5100000003', '5100000004']
const OPENING_KOBO = 500_000_000
const MERCHANTS = ['MRC0001', 'MRC0002']

export function workload(deps: {
  random: () => number
  clients: { switch: ApiClient; app: ApiClient; admin: ApiClient }
  model: Model
  receiverUrl: string
  trace: string[]
  requests: { total: number; unavailable: number; tooMany: number }
  setFaults(on: boolean): void
  /** Moves the clock one second: the next request is signed at a time of its own. */
  tick(): void
  pump(): Promise<void>
  advance(ms: number): Promise<void>
}): Workload {
  const { random, clients, model, trace, requests } = deps
  const counts: Record<string, number> = {}
  const timing: Record<string, number> = {}
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const hex = (n: number) =>
    Array.from({ length: n }, () => '0123456789ABCDEF'[Math.floor(random() * 16)]).join('')

  async function answered(
    label: string,
    send: () => Promise<ClientReply<Answer>>,
  ): Promise<ClientReply<Answer>> {
    for (let attempt = 0; attempt < 40; attempt++) {
      // Each attempt signed at a time of its own (the clock stands still otherwise): a signed request
      // sent twice with one timestamp is refused as a replay, as it should be.
      deps.tick()
      const reply = await send()
      requests.total++
      if (reply.status === 503) {
        requests.unavailable++
        if (!reply.headers.get('retry-after')) model.violations.push(`${label}: a 503 without Retry-After`)
        continue
      }
      if (reply.status === 429) {
        requests.tooMany++
        continue
      }
      if (reply.status >= 500) model.violations.push(`${label}: ${reply.status} ${reply.text.slice(0, 200)}`)
      return reply
    }
    deps.setFaults(false)
    deps.tick()
    try {
      return await send()
    } finally {
      deps.setFaults(true)
    }
  }

  /**
   * A NIP session id (CONTRACT 24): institution, the (fake) clock's yyMMddHHmmss, a serial of the
   * operation and the seed's digits, unique across the runs that share a table.
   */
  const sessionIdOf = (i: number) => {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(2, 14)
    const digits = Array.from({ length: 6 }, () => Math.floor(random() * 10)).join('')
    return `999999${stamp}${String(i).padStart(6, '0')}${digits}`
  }

  /** A new transfer's body; half of them carry a session id. */
  function transferOf(i: number, prefix = 'SIM') {
    return {
      requestId: `${prefix}-${i}-${hex(8)}`,
      stan: String(100000 + (i % 900000)),
      processingCode: '400000',
      merchantId: pick(MERCHANTS),
      merchantReference: `ORD-${i}`,
      accountNumber: pick(SIM_ACCOUNTS),
      // Whole kobo over 100: 1 + n / 100 can carry a float tail (124.45000000000002), a third decimal.
      amount: (100 + Math.floor(random() * 50000)) / 100,
      currency: 'NGN',
      productCode: 'AIRTIME',
      ...(random() < 0.5 ? { sessionId: sessionIdOf(i) } : {}),
    }
  }

  /** What the model keeps of a transfer answered (by its reply or by a status query's). */
  function answeredTransfer(
    body: ReturnType<typeof transferOf>,
    status: number,
    text: string,
    code?: string,
  ) {
    model.transfers.set(body.requestId, {
      accountNumber: body.accountNumber,
      amountKobo: Math.round(body.amount * 100),
      body,
      status,
      reply: text,
      succeeded: status === 200 && code === '00',
      reversals: 0,
    })
    if (body.sessionId) model.sessions.set(body.sessionId, body.requestId)
  }

  async function transfer(i: number) {
    const body = transferOf(i)
    const reply = await answered(`transfer ${body.requestId}`, () =>
      clients.switch.post('/api/v1/transactions/transfer', body),
    )
    answeredTransfer(body, reply.status, reply.text, reply.body?.responseCode)
    return `${reply.status} ${reply.body?.responseCode}`
  }

  /** The status query of a requestId or session id, sent again only when it did not get through. */
  const statusQuery = (label: string, query: { requestId: string } | { sessionId: string }) =>
    answered(`status query of ${label}`, () =>
      clients.switch.post('/api/v1/transactions/status-query', query),
    )

  /**
   * A transfer whose reply the switch never gets (its timeout): sent once, the reply dropped unread,
   * then settled 15 s later by one status query, by its requestId or its session id. The query must
   * answer the outcome (00 or 51) or a final 25; a 25 means no debit, ever.
   */
  async function timedOut(i: number) {
    const body = transferOf(i, 'SIMTO')
    deps.tick()
    requests.total++
    await clients.switch.post('/api/v1/transactions/transfer', body)
    await deps.advance(15_000)
    const query =
      body.sessionId && random() < 0.5 ? { sessionId: body.sessionId } : { requestId: body.requestId }
    const reply = await statusQuery(body.requestId, query)
    const code = reply.body?.responseCode
    if (reply.status === 200 && (code === '00' || code === '51')) {
      const { queriedAt: _, ...first } = JSON.parse(reply.text)
      answeredTransfer(body, 200, JSON.stringify(first), code)
    } else if (reply.status === 404 && code === '25') {
      model.neverReceived.push({ requestId: body.requestId, sessionId: body.sessionId })
    } else {
      model.violations.push(
        `timed-out transfer ${body.requestId}: the status query answered ${reply.status} ${reply.text.slice(0, 200)}`,
      )
    }
    return `${reply.status} ${code}`
  }

  /**
   * The late original: a status query finds a requestId (or session id) never received, a final 25;
   * then the original arrives, and must be refused with the same 25, never debited.
   */
  async function lateOriginal(i: number) {
    const body = transferOf(i, 'SIMLATE')
    const bySession = body.sessionId !== undefined && random() < 0.5
    const query = await statusQuery(
      body.requestId,
      bySession ? { sessionId: body.sessionId! } : { requestId: body.requestId },
    )
    const late = await answered(`late original ${body.requestId}`, () =>
      clients.switch.post('/api/v1/transactions/transfer', body),
    )
    for (const [what, reply] of [
      ['status query', query],
      ['late original', late],
    ] as const)
      if (reply.status !== 404 || reply.body?.responseCode !== '25')
        model.violations.push(
          `${what} of never-received ${body.requestId}: ${reply.status} ${reply.text.slice(0, 200)}, not the final 25`,
        )
    model.neverReceived.push({ requestId: body.requestId, sessionId: body.sessionId, bySession })
    return `${query.status} ${late.status}`
  }

  /** A session id already used, under a new requestId: refused with 26, nothing moves. */
  async function sessionReuse(i: number) {
    const used = [...model.sessions.entries()].filter(
      ([, requestId]) => model.transfers.get(requestId)?.status === 200,
    )
    if (!used.length) return 'none'
    const [sessionId] = pick(used)
    const body = { ...transferOf(i, 'SIMSES'), sessionId }
    const reply = await answered(`session reuse ${sessionId}`, () =>
      clients.switch.post('/api/v1/transactions/transfer', body),
    )
    if (reply.status !== 409 || reply.body?.responseCode !== '26')
      model.violations.push(
        `session id ${sessionId} under a second requestId ${body.requestId}: ${reply.status} ${reply.text.slice(0, 200)}, not 26`,
      )
    model.sessionReuses.push(body.requestId)
    return `${reply.status}`
  }

  async function replay() {
    const all = [...model.transfers.values()]
    if (!all.length) return 'none'
    const first = pick(all)
    const reply = await answered(`replay ${first.body.requestId}`, () =>
      clients.switch.post('/api/v1/transactions/transfer', first.body),
    )
    const differ = differences(first.reply, reply.text)
    if (reply.status !== first.status || differ.length)
      model.violations.push(
        `replay of ${first.body.requestId}: ${reply.status}, first ${first.status}; fields that differ: ${differ.join(', ')}`,
      )
    return `${reply.status}`
  }

  async function reversal(i: number) {
    const done = [...model.transfers.values()].filter((t) => t.succeeded)
    if (!done.length) return 'none'
    const original = pick(done)
    const body = {
      requestId: `SIMREV-${i}-${hex(8)}`,
      stan: String(100000 + (i % 900000)),
      processingCode: '400000',
      originalRequestId: original.body.requestId,
    }
    const reply = await answered(`reversal ${body.requestId}`, () =>
      clients.switch.post('/api/v1/transactions/reversal', body),
    )
    if (reply.status === 200 && reply.body?.responseCode === '00') {
      original.reversals++
      model.reversals.push({ requestId: body.requestId, original: original.body.requestId })
    }
    return `${reply.status} ${reply.body?.responseCode}`
  }

  async function balance(i: number) {
    const body = {
      requestId: `SIMBAL-${i}`,
      stan: '000001',
      processingCode: '310000',
      accountNumber: pick(SIM_ACCOUNTS),
    }
    const reply = await answered('balance enquiry', () =>
      clients.switch.post('/api/v1/transactions/balance-enquiry', body),
    )
    return `${reply.status}`
  }

  async function sign(i: number) {
    const irn = `INV${hex(12)}-${DEV.supplier.serviceId}-20261125`
    const invoice = buildInvoice({ irn, minimal: random() < 0.5 })
    const reply = await answered(`sign ${irn}`, () => clients.app.post('/api/v1/app/invoice/sign', invoice))
    if (reply.status === 200) model.invoices.push(irn)
    else model.violations.push(`sign ${irn} (operation ${i}): ${reply.status} ${reply.text.slice(0, 200)}`)
    return `${reply.status}`
  }

  async function subscribe() {
    if (model.subscriptions.length >= 3) return 'full'
    const url = `${deps.receiverUrl}/${model.subscriptions.length + 1}`
    const reply = await answered('subscribe', () =>
      clients.admin.post('/api/v1/webhooks', { url, events: ['invoice.signed'] }),
    )
    const made = reply.status === 201 ? reply.body?.data : undefined
    if (made) model.subscriptions.push({ id: made.id, createdAt: made.created_at })
    return `${reply.status}`
  }

  /** The simulation's tills: each signs its chain, holds some receipts back and regenerates some. */
  const tills: { till: Till; held: Receipt[]; answered: Receipt[]; model: SimTillModel }[] = []
  const TILLS = 2

  /** One receipt a report: a report's receipts are decided side by side, which the seed cannot order. */
  async function report(t: (typeof tills)[number], receipt: Receipt, i: number) {
    const hash = hashOf(receipt)
    if (!t.model.receipts.has(hash))
      t.model.receipts.set(hash, { counter: receipt.device.counter, irn: receipt.irn, statuses: [] })
    const reply = await answered(`receipt ${receipt.device.counter} of ${t.model.deviceId}`, () =>
      clients.app.post('/api/v1/receipts', { receipts: [receipt] }),
    )
    const result = (reply.body as { data?: { status: string; first?: { status: string } }[] } | undefined)
      ?.data?.[0]
    if (reply.status !== 200 || !result) {
      model.violations.push(`receipts (operation ${i}): ${reply.status} ${reply.text.slice(0, 200)}`)
      return `${reply.status}`
    }
    // A DUPLICATE stands for its first result: a resend after a cut report meets what the cut stored.
    const status = result.status === 'DUPLICATE' ? (result.first?.status ?? 'DUPLICATE') : result.status
    const statuses = t.model.receipts.get(hash)!.statuses
    if (statuses.push(status) === 1) t.answered.push(receipt)
    return status
  }

  /** A till's turn: its next receipt, one held back earlier, a resend, or a regenerated retry. */
  async function receipts(i: number) {
    const t = pick(tills)
    const irn = () => `INV${hex(12)}-${DEV.supplier.serviceId}-20261125`
    const next = () => {
      const receipt = t.till.next({ invoice: b2cInvoice(irn()) })
      t.model.lastCounter = receipt.device.counter
      return receipt
    }
    const r = random()
    if (r < 0.2 && t.held.length) return `held ${await report(t, t.held.shift()!, i)}`
    if (r < 0.3 && t.answered.length) return `resent ${await report(t, pick(t.answered), i)}`
    if (r < 0.4) {
      // A reply lost and the receipt built afresh (same counter and link, other bytes): the retry goes
      // now, the original later; the till's chain goes on from the original.
      const original = next()
      const retry = t.till.sign({ ...b2cInvoice(irn()), device: original.device })
      t.model.retried.add(original.device.counter)
      t.held.push(original)
      return `retry ${await report(t, retry, i)}`
    }
    if (r < 0.5) {
      // Held back: a gap until it is sent.
      t.held.push(next())
    }
    const receipt = next()
    return `next ${await report(t, receipt, i)}`
  }

  return {
    counts,
    timing,
    async setup() {
      // Opened once; a later run on the same table starts from the balances the earlier left.
      for (const accountNumber of SIM_ACCOUNTS) {
        const { account } = await openAccount({
          accountNumber,
          name: `Simulation ${accountNumber}`,
          balanceKobo: OPENING_KOBO,
        })
        model.accounts.set(accountNumber, account.balanceKobo)
      }
      await subscribe()
      for (let n = 0; n < TILLS; n++) {
        const { till } = await registerTill(clients.admin, n % 2 ? 'P-256' : 'Ed25519', `Sim till ${n + 1}`)
        const tillModel = {
          deviceId: till.deviceId,
          lastCounter: 0,
          retried: new Set<number>(),
          receipts: new Map(),
        }
        tills.push({ till, held: [], answered: [], model: tillModel })
        model.tills.push(tillModel)
      }
    },
    async flush() {
      for (const t of tills)
        for (let receipt = t.held.shift(); receipt; receipt = t.held.shift())
          trace.push(`flush ${await report(t, receipt, -1)}`)
    },
    async teardown() {
      // A business has at most 100 active devices, and runs may share a table.
      for (const t of tills) await clients.admin.request('DELETE', `/api/v1/devices/${t.model.deviceId}`)
      // The run's receiver goes with it: so do its subscriptions (a later run's events skip them).
      for (const s of model.subscriptions) await clients.admin.request('DELETE', `/api/v1/webhooks/${s.id}`)
    },
    async operation(i) {
      const r = random()
      // Each kind up to its share of [0, 1): one draw picks the operation, the last kind the rest.
      const mix: [number, string, () => Promise<string>][] = [
        [0.35, 'transfer', () => transfer(i)],
        [0.42, 'replay', replay],
        [0.52, 'reversal', () => reversal(i)],
        [0.6, 'balance', () => balance(i)],
        [0.72, 'sign', () => sign(i)],
        [0.8, 'receipts', () => receipts(i)],
        [0.81, 'subscribe', subscribe],
        [0.88, 'pump', () => deps.pump().then(() => '')],
        [0.91, 'timed out', () => timedOut(i)],
        [0.93, 'late original', () => lateOriginal(i)],
        [0.95, 'session reuse', () => sessionReuse(i)],
        [
          1,
          'advance',
          async () => {
            const ms = Math.floor(random() * 30 * 60_000)
            await deps.advance(ms)
            return String(ms)
          },
        ],
      ]
      const [, kind, run] = mix.find(([upTo]) => r < upTo) ?? mix.at(-1)!
      counts[kind] = (counts[kind] ?? 0) + 1
      const t0 = performance.now()
      trace.push(`${i} ${kind} ${await run()}`)
      timing[kind] = (timing[kind] ?? 0) + performance.now() - t0
    },
  }
}
