import { type InvoiceRecord, statusRank } from './record.ts'

/**
 * What a validate or sign does with the record as it stands, decided with no I/O (like the ledger's
 * lib/ledger/decisions.ts): reply again as before (`replay`), refuse (`conflict`), or write the new
 * content over what was read (`write`, whose `existing` is the condition of that write).
 */
export type InvoiceWriteDecision =
  | { outcome: 'replay'; record: InvoiceRecord }
  | { outcome: 'conflict'; message: string }
  | { outcome: 'write'; existing: InvoiceRecord | undefined }

export interface InvoiceWriteRequest {
  irn: string
  businessId: string
  action: 'validate' | 'sign'
  /** The canonical content's hash: "the same invoice again" is the same hash. */
  contentHash: string
}

export function decideInvoiceWrite(
  existing: InvoiceRecord | undefined,
  request: InvoiceWriteRequest,
): InvoiceWriteDecision {
  if (!existing) return { outcome: 'write', existing }
  if (existing.businessId !== request.businessId) {
    return { outcome: 'conflict', message: `IRN ${request.irn} is registered to another business` }
  }
  const same = existing.contentHash === request.contentHash
  // Signed content is final: the same content again is the first reply again, anything else a conflict.
  if (statusRank(existing.status) >= statusRank('SIGNED')) {
    return same
      ? { outcome: 'replay', record: existing }
      : {
          outcome: 'conflict',
          message: `IRN ${request.irn} is already ${existing.status} with different content: a signed invoice cannot change; issue a credit or debit note with a new IRN`,
        }
  }
  // Validating the validated content again changes nothing: its first reply again.
  if (request.action === 'validate' && existing.status === 'VALIDATED' && same) {
    return { outcome: 'replay', record: existing }
  }
  return { outcome: 'write', existing }
}
