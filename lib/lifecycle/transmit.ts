import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { type Business, getBusiness, getBusinessByTin } from '#lib/registry/businesses.ts'
import { Conflict, DependencyDown, NotFound, type Problem } from '#lib/platform/errors.ts'
import { readableInvoiceOf } from '#lib/invoice/notes.ts'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { deliverSigned } from '#lib/webhooks/party-post.ts'
import { type PartyWebhook, webhooksOf } from '#lib/webhooks/parties.ts'
import { probeWebhook, WEBHOOK_TIMEOUT_MS } from '#lib/webhooks/probe.ts'
import { markTransmitted, readInvoiceRecord } from '#lib/invoice/repository.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { magicBuyerSystem } from '#lib/sandbox/magic.ts'
import { currentMode } from '#lib/platform/mode.ts'
import type { TransmitRequest } from './schemas.ts'
import { inboxPut, restoreInboxItem } from './inbox.ts'
import { buyerTinOf } from './views.ts'

/**
 * transmit (CONTRACT section 5): a SIGNED invoice of the caller's business is checked against every
 * involved party's registered webhook (supplier, and the buyer found by its TIN), delivered to the
 * buyer's webhook signed like an Area B request, then moved to TRANSMITTED with a conditional write.
 * A party down, or a delivery refused, is a 503 and changes nothing. Transmitting again is a no-op.
 * Delivery is at least once: two transmits racing may both deliver, and the receiver dedupes by irn.
 *
 * The reply says whether each party's system is up, and nothing else of another business's settings
 * (CONTRACT section 14): not its name, not its webhook URL, not why it is down, and not whether the
 * buyer's TIN is registered here at all ("no system registered" covers both). Only the caller's own
 * (supplier) system's failure gets its class (timeout, HTTP 503, ...).
 */

interface Party {
  role: 'supplier' | 'buyer'
  tin: string
  business: Business | undefined
  webhooks: PartyWebhook[]
  /**
   * A magic buyer of test mode (lib/sandbox/magic.ts): its system is up or down by its TIN, and it has
   * no real system, so nothing is probed or delivered; an `up` one's invoice.received goes to the
   * supplier's own subscriptions (`business` is the supplier).
   */
  magic?: 'up' | 'down'
}

export interface TransmitResult {
  lines: string[]
  alreadyTransmitted: boolean
}

/** The party as the invoice names it: its role and TIN, which the caller wrote itself. */
const label = (party: Party) => `${party.role} ${party.tin}`

async function partiesOf(record: InvoiceRecord, supplier: Business): Promise<Party[]> {
  const parties: Party[] = [
    {
      role: 'supplier',
      tin: supplier.tin,
      business: supplier,
      webhooks: await webhooksOf(supplier.businessId),
    },
  ]
  const buyerTin = buyerTinOf(record)
  const magic = magicBuyerSystem(buyerTin)
  if (buyerTin && magic) {
    parties.push({ role: 'buyer', tin: buyerTin, business: supplier, webhooks: [], magic })
  } else if (buyerTin) {
    const buyer = await getBusinessByTin(buyerTin)
    parties.push({
      role: 'buyer',
      tin: buyerTin,
      business: buyer,
      webhooks: buyer ? await webhooksOf(buyer.businessId) : [],
    })
  }
  return parties
}

/** Every party's webhooks, checked in parallel; the lines say what was found. */
async function checkParties(parties: Party[]): Promise<{ lines: string[]; problems: Problem[] }> {
  const checks = await Promise.all(
    parties.map(async (party) => ({
      party,
      probes: await Promise.all(party.webhooks.map((w) => probeWebhook(w.url))),
    })),
  )
  const lines: string[] = []
  const problems: Problem[] = []
  for (const { party, probes } of checks) {
    if (party.magic) {
      // The same line and problem as a real system's: the sandbox answers as production would.
      if (party.magic === 'up') lines.push(`${label(party)}: system is up`)
      else problems.push(downProblem(party, 'HTTP 503'))
      continue
    }
    if (probes.length === 0) lines.push(`${label(party)}: no system registered, not checked`)
    for (const probe of probes) {
      if (probe.status === 'UP') {
        lines.push(`${label(party)}: system is up`)
      } else {
        problems.push(downProblem(party, probe.reason))
      }
    }
  }
  return { lines, problems }
}

/** A party's system is down: only the caller's own (supplier) system's failure gets its class. */
function downProblem(party: Party, reason: string | undefined): Problem {
  const why = party.role === 'supplier' ? `${reason}; ` : ''
  return {
    path: `parties/${party.role}/webhook`,
    code: 'WEBHOOK_DOWN',
    message: `${label(party)}: system is down (${why}checked with a ${WEBHOOK_TIMEOUT_MS} ms limit)`,
  }
}

/**
 * What the buyer's webhook receives. A test-mode delivery says so at its top, as every test-mode
 * delivery payload does (CONTRACT 18): a receiver routes on it before it opens the invoice.
 */
const deliveryPayload = async (record: InvoiceRecord) => ({
  ...(currentMode() === 'test' ? { mode: 'test' as const } : {}),
  irn: record.irn,
  // Notes opened again: the buyer verifies the signature over the plaintext invoice.
  invoice: await readableInvoiceOf(record),
  signature: record.signature,
  signing_key_id: record.signingKeyId,
  signed_at: record.signedAt,
})

async function deliverToBuyer(
  record: InvoiceRecord,
  parties: Party[],
): Promise<{ lines: string[]; problems: Problem[] }> {
  const buyer = parties.find((p) => p.role === 'buyer')
  if (!buyer) return { lines: ['buyer: the invoice names no buyer TIN, nothing delivered'], problems: [] }
  // A magic buyer that is up "receives" it: its invoice.received is the supplier's own event.
  if (buyer.magic === 'up') return { lines: [`${label(buyer)}: signed invoice delivered`], problems: [] }
  if (buyer.webhooks.length === 0) {
    return {
      lines: [
        `${label(buyer)}: nothing delivered; the buyer can pull the invoice with GET /api/v1/si/get-invoice/${record.irn}`,
      ],
      problems: [],
    }
  }
  const deliveries = await Promise.all(
    buyer.webhooks.map(async (w) => deliverSigned(w, await deliveryPayload(record))),
  )
  const lines: string[] = []
  const problems: Problem[] = []
  for (const d of deliveries) {
    if (d.delivered) lines.push(`${label(buyer)}: signed invoice delivered`)
    else
      problems.push({
        path: 'parties/buyer/delivery',
        code: 'DELIVERY_FAILED',
        message: `${label(buyer)}: the delivery to its system failed`,
      })
  }
  return { lines, problems }
}

function refuse(problems: Problem[], irn: string): never {
  throw new DependencyDown(
    `Invoice ${irn} was not transmitted and stays SIGNED: ${problems.length} party endpoint${problems.length === 1 ? ' is' : 's are'} unavailable; retry when ${problems.length === 1 ? 'it is' : 'they are'} up`,
    { problems },
  )
}

export async function transmit(caller: ApiClientCaller, body: TransmitRequest): Promise<TransmitResult> {
  const { businessId } = caller
  const record = await readInvoiceRecord(body.irn)
  if (!record || record.businessId !== businessId)
    throw new NotFound(`No invoice ${body.irn} for your business`, { code: 'INVOICE_NOT_FOUND' })
  if (record.status === 'TRANSMITTED') {
    await restoreInboxItem(record)
    return {
      lines: [`invoice ${record.irn}: already TRANSMITTED at ${record.transmittedAt}, nothing sent again`],
      alreadyTransmitted: true,
    }
  }
  if (record.status !== 'SIGNED') {
    throw new Conflict(
      `Invoice ${record.irn} is ${record.status}: only a SIGNED invoice can be transmitted; sign it with /app/invoice/sign first`,
    )
  }
  const supplier = await getBusiness(businessId)
  if (!supplier) throw new NotFound(`No business ${businessId}`)
  const parties = await partiesOf(record, supplier)

  const checked = await checkParties(parties)
  if (checked.problems.length) refuse(checked.problems, record.irn)
  const delivered = await deliverToBuyer(record, parties)
  if (delivered.problems.length) refuse(delivered.problems, record.irn)

  const buyerParty = parties.find((p) => p.role === 'buyer')
  const buyerBusinessId = buyerParty?.business?.businessId
  // A buyer registered here (never a magic one, whose "business" is the supplier) gets the invoice in
  // its inbox, put once the record says TRANSMITTED (./inbox.ts).
  const inboxOf = buyerParty && !buyerParty.magic ? buyerParty.business?.businessId : undefined
  let now: InvoiceRecord | undefined = record
  // A payment update between the read and the write only changes what the events say: write again.
  const at = await withRetries(
    async () => {
      if (now?.status !== 'SIGNED') return undefined
      const at = new Date().toISOString()
      const inbox = inboxOf ? { businessId: inboxOf, put: inboxPut(now, inboxOf, at) } : undefined
      if (await markTransmitted(now, buyerBusinessId, at, actorOf(caller), inbox)) return at
      now = await readInvoiceRecord(record.irn)
      return AGAIN
    },
    { attempts: 3, baseMs: 0, exhausted: () => undefined },
  )
  if (at) {
    return {
      lines: [...checked.lines, ...delivered.lines, `invoice ${record.irn}: SIGNED -> TRANSMITTED at ${at}`],
      alreadyTransmitted: false,
    }
  }
  // A concurrent transmit won the write: that is the same outcome, unless the invoice went elsewhere.
  if (now?.status === 'TRANSMITTED') {
    return {
      lines: [
        ...checked.lines,
        ...delivered.lines,
        `invoice ${record.irn}: TRANSMITTED at ${now.transmittedAt} by a concurrent request`,
      ],
      alreadyTransmitted: true,
    }
  }
  throw new Conflict(
    `Invoice ${record.irn} changed to ${now?.status ?? 'deleted'} during transmission: check it and retry`,
  )
}
