import { invoiceEvent, writeWithAudit } from '#lib/platform/audit/trail.ts'
import type { NamedItems, TransactItem } from '#lib/platform/db/transact.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { eventPut, type IntegrationEvent, newEvent } from '#lib/events/event.ts'
import type { InvoiceStorage } from './canonical.ts'
import { sealStorage } from './notes.ts'
import type { InvoiceRecord, InvoiceStatus, PaymentStatus } from './record.ts'

/**
 * The one owner of the invoice record (lib/invoice/record.ts): every write of it, for IRNs, validate,
 * sign, transmit and payment updates, is here. Each write is conditional on the record being exactly
 * what the decision was made from (absent, or at a given status and revision), so concurrent requests
 * cannot both move one invoice: the loser re-reads and decides again.
 *
 * What is written with it (lib/platform/audit/trail.ts writeWithAudit): in one transaction, the
 * items stored with the change or not at all: its audit event and its integration events (lib/events:
 * the webhooks' outbox, CONTRACT 11: no change without its event), and where there is one, a signed
 * invoice's search list item (its numbers are on it alone, so it cannot be made again from the
 * record), a credit or debit note's change of its original (the credited total's bound is that
 * item's condition) and a batch item's result (lib/batches). The copies of its state elsewhere (the
 * buyer's inbox item, a list item's payment status) are plain writes once the transaction is: SETs
 * of the change's values, or a Put a repeated transmit makes again.
 */

export const readInvoiceRecord = (irn: string) =>
  readRecord<InvoiceRecord>(keys.invoice(irn), { consistent: true })

/** The content a validate or sign writes. */
export interface InvoiceContent {
  irn: string
  businessId: string
  status: Extract<InvoiceStatus, 'VALIDATED' | 'SIGNED'>
  paymentStatus: PaymentStatus
  supplierTin: string
  buyerTin?: string
  storage: InvoiceStorage
  contentHash: string
  signature?: string
  signingKeyId?: string
  /** Its number in the business's search list, for a sign (lib/invoice/search-index.ts). */
  listSeq?: number
  at: string
}

/** `data` of every invoice event: where the invoice stands after the change, plus the change's fields. */
function invoiceData<C extends object>(
  record: Pick<InvoiceRecord, 'irn' | 'status' | 'paymentStatus'>,
  sequence: number,
  change: C,
) {
  return { irn: record.irn, status: record.status, payment_status: record.paymentStatus, sequence, ...change }
}

/**
 * The revision a conditional `ADD revision :one` writes after `read` (CONTRACT 21: the event's
 * `sequence`), and the condition that makes it so: the revision read (absent on records older than it).
 */
function nextRevision(read: { revision?: number }) {
  const known = typeof read.revision === 'number'
  return {
    sequence: known ? read.revision! + 1 : 1,
    condition: known ? 'revision = :seenRevision' : 'attribute_not_exists(revision)',
    values: known ? { ':seenRevision': read.revision } : {},
  }
}

/** The integration event of a validate or sign write. */
function contentEvent(
  content: InvoiceContent,
  sequence: number,
  previousStatus?: InvoiceStatus,
): IntegrationEvent {
  const signed = content.status === 'SIGNED'
  return newEvent(
    signed ? 'invoice.signed' : 'invoice.validated',
    content.businessId,
    invoiceData(content, sequence, {
      ...(previousStatus ? { previous_status: previousStatus } : {}),
      ...(signed ? { signed_at: content.at } : { validated_at: content.at }),
    }),
    content.at,
  )
}

/**
 * Creates the record; undefined when a record for the IRN appeared first. `together`: items for the
 * same transaction (a sign's list item, a note's original, a batch item's result), whose own
 * condition failing cancels all. This is the one writer of a new validated or signed invoice record.
 */
export async function createRecord(
  content: InvoiceContent,
  actor: string,
  together: NamedItems = {},
): Promise<InvoiceRecord | undefined> {
  const { at, storage: plainStorage, ...rest } = content
  // Notes are stored encrypted; the hash and signature in `rest` are over the plaintext.
  const storage = await sealStorage(content.irn, plainStorage)
  const record: InvoiceRecord = {
    ...rest,
    ...storage,
    validatedAt: at,
    ...(content.status === 'SIGNED' ? { signedAt: at } : {}),
    createdAt: at,
    updatedAt: at,
    revision: 1,
  }
  const created = await writeWithAudit(
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.invoice(content.irn),
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    [
      invoiceEvent(content.status === 'SIGNED' ? 'INVOICE_SIGNED' : 'INVOICE_VALIDATED', {
        irn: content.irn,
        businessId: content.businessId,
        after: content.status,
        actor,
        at,
      }),
    ],
    { together: { event: eventPut(contentEvent(content, record.revision)), ...together } },
  )
  return created ? record : undefined
}

/**
 * Moves a GENERATED or VALIDATED record forward with new content; undefined when the record is no
 * longer at the status and revision it was read at. Fields other services own (generatedAt,
 * paymentUpdatedAt...) are left as they are.
 */
export async function advanceRecord(
  existing: InvoiceRecord,
  content: InvoiceContent,
  actor: string,
  together: NamedItems = {},
): Promise<InvoiceRecord | undefined> {
  const advanced = await writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(content.irn),
        ...(await contentUpdate(existing, content)),
      },
    },
    [
      invoiceEvent(content.status === 'SIGNED' ? 'INVOICE_SIGNED' : 'INVOICE_VALIDATED', {
        irn: content.irn,
        businessId: content.businessId,
        before: existing.status,
        after: content.status,
        actor,
        at: content.at,
      }),
    ],
    {
      together: {
        event: eventPut(contentEvent(content, nextRevision(existing).sequence, existing.status)),
        ...together,
      },
    },
  )
  return advanced ? readInvoiceRecord(content.irn) : undefined
}

/**
 * The update that moves a record to new content: the content's fields set, the storage form and
 * buyer index it no longer has removed, the revision bumped; conditional on the status and revision read.
 */
async function contentUpdate(existing: InvoiceRecord, content: InvoiceContent) {
  const sameContent = existing.contentHash === content.contentHash
  const validatedAt = sameContent && existing.validatedAt ? existing.validatedAt : content.at
  const set: Record<string, unknown> = {
    status: content.status,
    paymentStatus: content.paymentStatus,
    supplierTin: content.supplierTin,
    contentHash: content.contentHash,
    validatedAt,
    updatedAt: content.at,
    ...(await sealStorage(content.irn, content.storage)),
    ...(content.status === 'SIGNED'
      ? { signature: content.signature, signingKeyId: content.signingKeyId, signedAt: content.at }
      : {}),
    ...(content.listSeq !== undefined ? { listSeq: content.listSeq } : {}),
  }
  const remove: string[] = []
  if (content.buyerTin) set.buyerTin = content.buyerTin
  else remove.push('buyerTin')
  // The index keys a record written before issue 43 carries (no query reads them): dropped here.
  remove.push('gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk')
  // Exactly one of the two storage forms is kept.
  remove.push(content.storage.invoice ? 'invoiceGzip' : 'invoice')

  const names: Record<string, string> = { '#revision': 'revision', '#status': 'status' }
  const values: Record<string, unknown> = { ':one': 1, ':expectedStatus': existing.status }
  const sets = Object.entries(set)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], i) => {
      names[`#s${i}`] = name
      values[`:s${i}`] = value
      return `#s${i} = :s${i}`
    })
  const removes = remove.map((name, i) => {
    names[`#r${i}`] = name
    return `#r${i}`
  })
  const revisionKnown = typeof existing.revision === 'number'
  if (revisionKnown) values[':revision'] = existing.revision
  return {
    UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')} ADD #revision :one`,
    ConditionExpression: `#status = :expectedStatus AND ${revisionKnown ? '#revision = :revision' : 'attribute_not_exists(#revision)'}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  }
}

/**
 * Registers an IRN as GENERATED unless a record for it already exists (the IRN is the key, so the
 * condition is what guarantees an IRN is never issued twice). Returns the record now stored: the new
 * one, or the one that was already there (generated earlier, or already validated or signed).
 */
export async function createGenerated(
  irn: string,
  businessId: string,
  actor: string,
): Promise<InvoiceRecord> {
  const at = new Date().toISOString()
  const record: InvoiceRecord = {
    irn,
    businessId,
    status: 'GENERATED',
    paymentStatus: 'PENDING',
    generatedAt: at,
    createdAt: at,
    updatedAt: at,
    revision: 1,
  }
  // The audit event is written once the record is (lib/platform/audit/trail.ts).
  const created = await writeWithAudit(
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.invoice(irn), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    [invoiceEvent('INVOICE_GENERATED', { irn, businessId, after: 'GENERATED', actor, at })],
  )
  if (created) return record
  const existing = await readInvoiceRecord(irn)
  // The condition failed, so the record exists; only a delete in between could make this undefined.
  if (!existing) return createGenerated(irn, businessId, actor)
  return existing
}

/** invoice.transmitted to the supplier, and invoice.received to the buyer when it is a business here. */
function transmitEvents(
  record: Pick<InvoiceRecord, 'irn' | 'businessId' | 'paymentStatus' | 'supplierTin' | 'buyerTin'>,
  sequence: number,
  buyerBusinessId: string | undefined,
  at: string,
): IntegrationEvent[] {
  const after = { irn: record.irn, status: 'TRANSMITTED' as const, paymentStatus: record.paymentStatus }
  const events = [
    newEvent(
      'invoice.transmitted',
      record.businessId,
      invoiceData(after, sequence, { transmitted_at: at }),
      at,
    ),
  ]
  if (!buyerBusinessId) return events
  const received = {
    transmitted_at: at,
    ...(record.supplierTin ? { supplier_tin: record.supplierTin } : {}),
    ...(record.buyerTin ? { buyer_tin: record.buyerTin } : {}),
  }
  return [
    ...events,
    newEvent('invoice.received', buyerBusinessId, invoiceData(after, sequence, received), at),
  ]
}

/**
 * SIGNED -> TRANSMITTED. False when the invoice was no longer SIGNED at the payment status it was read
 * with (someone else moved it), so the events describe exactly the state written. The supplier gets
 * invoice.transmitted; the buyer's business, when the buyer TIN is registered here, invoice.received.
 */
export async function markTransmitted(
  record: Pick<
    InvoiceRecord,
    'irn' | 'businessId' | 'paymentStatus' | 'supplierTin' | 'buyerTin' | 'revision'
  >,
  buyerBusinessId: string | undefined,
  at: string,
  actor: string,
  inbox?: { businessId: string; put: TransactItem },
): Promise<boolean> {
  const { irn, businessId } = record
  const next = nextRevision(record)
  const events = transmitEvents(record, next.sequence, buyerBusinessId, at)
  return writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(irn),
        // The buyer's inbox item (lib/lifecycle/inbox.ts) is put once this is written, and the record
        // names its business so that later writes keep the item in step (and a repeated transmit
        // puts it again if it is missing: lib/lifecycle/transmit.ts).
        UpdateExpression: `SET #status = :transmitted, transmittedAt = :at, updatedAt = :at${inbox ? ', inboxBusinessId = :inbox' : ''} ADD revision :one`,
        ConditionExpression: `#status = :signed AND paymentStatus = :paymentStatus AND ${next.condition}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...next.values,
          ':transmitted': 'TRANSMITTED',
          ':signed': 'SIGNED',
          ':paymentStatus': record.paymentStatus,
          ':at': at,
          ':one': 1,
          ...(inbox ? { ':inbox': inbox.businessId } : {}),
        },
      },
    },
    [
      invoiceEvent('INVOICE_TRANSMITTED', {
        irn,
        businessId,
        before: 'SIGNED',
        after: 'TRANSMITTED',
        actor,
        at,
      }),
    ],
    { together: { events: events.map(eventPut) }, after: { inbox: inbox?.put } },
  )
}

/**
 * The buyer confirmed receipt of a TRANSMITTED invoice (CONTRACT 17): receivedAt is set once, with
 * invoice.receipt_confirmed to the supplier. False when it was set already (a repeat or a concurrent
 * confirmation), so a repeat writes and sends nothing. `also`: the inbox item's move (lib/lifecycle/inbox.ts),
 * written after the record.
 */
export async function markReceived(
  record: Pick<
    InvoiceRecord,
    'irn' | 'businessId' | 'paymentStatus' | 'transmittedAt' | 'buyerTin' | 'revision'
  >,
  at: string,
  actor: string,
  also: NamedItems = {},
): Promise<boolean> {
  const { irn, businessId } = record
  // Conditional on the revision read, as every invoice write is: the event's sequence is then the
  // revision written, never one a racing payment update also took. A false here means the record
  // moved; the caller reads it again and tries once more (lib/lifecycle/receipt.ts).
  const next = nextRevision(record)
  const event = newEvent(
    'invoice.receipt_confirmed',
    businessId,
    invoiceData({ irn, status: 'TRANSMITTED', paymentStatus: record.paymentStatus }, next.sequence, {
      transmitted_at: record.transmittedAt ?? at,
      received_at: at,
      ...(record.buyerTin ? { buyer_tin: record.buyerTin } : {}),
    }),
    at,
  )
  return writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(irn),
        UpdateExpression: 'SET receivedAt = :at, updatedAt = :at ADD revision :one',
        ConditionExpression: `#status = :transmitted AND attribute_not_exists(receivedAt) AND ${next.condition}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':transmitted': 'TRANSMITTED', ':at': at, ':one': 1, ...next.values },
      },
    },
    [
      invoiceEvent('INVOICE_RECEIPT_CONFIRMED', {
        irn,
        businessId,
        before: 'TRANSMITTED',
        after: 'RECEIVED',
        actor,
        at,
      }),
    ],
    { together: { event: eventPut(event) }, after: also },
  )
}

/**
 * from -> to (`also`: the copies of the status elsewhere, written after the record: the search list
 * item's, the inbox item's). False when the record was no longer at payment status `from` and invoice status
 * `status` (a concurrent update won), so the event states exactly what was written.
 */
export async function changePaymentStatus(
  record: Pick<InvoiceRecord, 'irn' | 'businessId' | 'status' | 'revision'>,
  from: PaymentStatus,
  to: PaymentStatus,
  at: string,
  actor: string,
  also: NamedItems = {},
  reference?: string,
): Promise<boolean> {
  const { irn, businessId } = record
  const next = nextRevision(record)
  const event = newEvent(
    'invoice.payment_status_changed',
    businessId,
    invoiceData({ irn, status: record.status, paymentStatus: to }, next.sequence, {
      previous_payment_status: from,
      payment_updated_at: at,
    }),
    at,
  )
  return writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(irn),
        // The supplier's `reference` (CONTRACT 17) is kept with the change it came with.
        UpdateExpression: `SET paymentStatus = :to, paymentUpdatedAt = :at, updatedAt = :at${reference !== undefined ? ', paymentReference = :reference' : ''} ADD revision :one`,
        ConditionExpression: `paymentStatus = :from AND #status = :status AND ${next.condition}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...next.values,
          ':from': from,
          ':to': to,
          ':status': record.status,
          ':at': at,
          ':one': 1,
          ...(reference !== undefined ? { ':reference': reference } : {}),
        },
      },
    },
    [invoiceEvent('PAYMENT_STATUS_CHANGED', { irn, businessId, before: from, after: to, actor, at })],
    { together: { event: eventPut(event) }, after: also },
  )
}
