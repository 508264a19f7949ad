import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/db/client.ts'
import { isConditionFailed } from '#lib/db/errors.ts'
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
export async function createGenerated(irn: string, businessId: string): Promise<InvoiceRecord> {
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
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.invoice(irn), ...keys.invoiceByBusiness(businessId, at, irn), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    return record
  } catch (error) {
    if (!isConditionFailed(error)) throw error
  }
  const existing = await readInvoiceRecord(irn)
  // The condition failed, so the record exists; only a delete in between could make this undefined.
  if (!existing) return createGenerated(irn, businessId)
  return existing
}

/** SIGNED -> TRANSMITTED. False when the invoice was no longer SIGNED (someone else moved it). */
export async function markTransmitted(irn: string, at: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
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
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** from -> to. False when the payment status was no longer `from` (a concurrent update won). */
export async function changePaymentStatus(
  irn: string,
  from: PaymentStatus,
  to: PaymentStatus,
  at: string,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoice(irn),
        UpdateExpression:
          'SET paymentStatus = :to, paymentUpdatedAt = :at, updatedAt = :at ADD revision :one',
        ConditionExpression: 'paymentStatus = :from',
        ExpressionAttributeValues: { ':from': from, ':to': to, ':at': at, ':one': 1 },
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}
