import { invoiceEvent, writeWithAudit } from '#lib/audit/trail.ts'
import { db, tableName } from '#lib/db/client.ts'
import { readRecord } from '#lib/db/items.ts'
import { keys } from '#lib/db/keys.ts'
import type { InvoiceRecord, InvoiceStatus, PaymentStatus } from './record.ts'
import type { InvoiceStorage } from './canonical.ts'
import { sealStorage } from './notes.ts'

/**
 * Reads and writes of the shared invoice record for validate and sign. Each write is conditional on
 * the record being exactly what the decision was made from (absent, or at a given status and
 * revision), so concurrent requests cannot both move one invoice: the loser re-reads and decides again.
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
  at: string
}

/** Creates the record; false when a record for the IRN appeared first. */
export async function createRecord(
  content: InvoiceContent,
  actor: string,
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
  // The write and its audit event are one transaction (lib/audit/trail.ts).
  const created = await writeWithAudit(
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.invoice(content.irn),
          ...keys.invoiceByBusiness(content.businessId, at, content.irn),
          ...(content.buyerTin ? keys.invoiceByBuyer(content.buyerTin, at, content.irn) : {}),
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
): Promise<InvoiceRecord | undefined> {
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
  }
  const createdAt = existing.createdAt ?? content.at
  Object.assign(set, keys.invoiceByBusiness(content.businessId, createdAt, content.irn))
  const remove: string[] = []
  if (content.buyerTin) {
    Object.assign(
      set,
      { buyerTin: content.buyerTin },
      keys.invoiceByBuyer(content.buyerTin, createdAt, content.irn),
    )
  } else {
    remove.push('buyerTin', 'gsi2pk', 'gsi2sk')
  }
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
  const advanced = await writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(content.irn),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')} ADD #revision :one`,
        ConditionExpression: `#status = :expectedStatus AND ${revisionKnown ? '#revision = :revision' : 'attribute_not_exists(#revision)'}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
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
  )
  return advanced ? readInvoiceRecord(content.irn) : undefined
}
