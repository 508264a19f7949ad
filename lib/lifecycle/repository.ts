import { invoiceEvent, writeWithAudit } from '#lib/audit/trail.ts'
import { tableName } from '#lib/db/client.ts'
import { keys } from '#lib/db/keys.ts'
import type { InvoiceRecord, PaymentStatus } from '#lib/invoice/record.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'

/**
 * Reads and writes of the shared invoice record (lib/invoice/record.ts) for the IRN, QR and lifecycle
 * services. Every state change is conditional on the state it was decided from, so two concurrent
 * requests can never both move one invoice.
 */

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
  // The audit event is written in the same transaction: a registered IRN always has its event.
  const created = await writeWithAudit(
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.invoice(irn), ...keys.invoiceByBusiness(businessId, at, irn), ...record },
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

/** SIGNED -> TRANSMITTED. False when the invoice was no longer SIGNED (someone else moved it). */
export async function markTransmitted(
  irn: string,
  businessId: string,
  at: string,
  actor: string,
): Promise<boolean> {
  return writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(irn),
        UpdateExpression:
          'SET #status = :transmitted, transmittedAt = :at, updatedAt = :at ADD revision :one',
        ConditionExpression: '#status = :signed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':transmitted': 'TRANSMITTED',
          ':signed': 'SIGNED',
          ':at': at,
          ':one': 1,
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
  )
}

/** from -> to. False when the payment status was no longer `from` (a concurrent update won). */
export async function changePaymentStatus(
  irn: string,
  businessId: string,
  from: PaymentStatus,
  to: PaymentStatus,
  at: string,
  actor: string,
): Promise<boolean> {
  return writeWithAudit(
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(irn),
        UpdateExpression:
          'SET paymentStatus = :to, paymentUpdatedAt = :at, updatedAt = :at ADD revision :one',
        ConditionExpression: 'paymentStatus = :from',
        ExpressionAttributeValues: { ':from': from, ':to': to, ':at': at, ':one': 1 },
      },
    },
    [invoiceEvent('PAYMENT_STATUS_CHANGED', { irn, businessId, before: from, after: to, actor, at })],
  )
}
