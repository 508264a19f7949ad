import { actorOf, type TransactItem } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { getBusiness } from '#lib/registry/businesses.ts'
import { transactionCancellationCodes } from '#lib/platform/db/errors.ts'
import { oneAtATime } from '#lib/platform/db/retry.ts'
import { BadRequest, Conflict, invalid, NotFound, type Problem, TooLarge } from '#lib/platform/errors.ts'
import type { Signature } from '#lib/platform/signing/signer.ts'
import { canonicalInvoice, STORED_LIMIT } from './canonical.ts'
import { loadCodeLists } from './code-lists.ts'
import { sealedStorageOf } from './notes.ts'
import { problem } from './problems.ts'
import { type InvoiceRecord, statusRank } from './record.ts'
import { advanceRecord, createRecord, type InvoiceContent, readInvoiceRecord } from './repository.ts'
import { adjustmentItems, checkNote, noteFactsOf } from './adjustments.ts'
import { allocateNumbers, listItemPut, type SearchNumbers, spacesOf, voidNumbers } from './search-index.ts'
import type { ApiVersion, StoredInvoice } from './schemas.ts'
import { type ValidationMode, validateInvoice } from './validate.ts'

/**
 * POST /si/validate (validate and record, VALIDATED) and POST /app/invoice/validate and /sign
 * (validate, sign and record, SIGNED), in v1 and v2 (CONTRACT sections 4 and 5).
 */

export type InvoiceAction = 'validate' | 'sign'

/** AccessPointProviderResponse plus the contract's irn and signed_at, and any warnings. */
export interface InvoiceReply {
  message: string
  payment_status: string
  irn: string
  signed_at?: string
  warnings?: Problem[]
}

/** Signs an invoice's canonical bytes: lib/platform/signing/signer.ts signBytes. */
export type InvoiceSigner = (bytes: Buffer) => Promise<Signature>

export interface InvoiceRequest {
  action: InvoiceAction
  /**
   * The signer, for action `sign`: given by the caller (the sign and app-validate handler modules,
   * the batch worker) so that si/validate, which never signs, does not carry the signing key's code.
   */
  sign?: InvoiceSigner
  version: ApiVersion
  caller: ApiClientCaller
  body: unknown
  /** The x-validation-mode header, as sent. */
  modeHeader: string | undefined
}

/** The request's x-validation-mode, else the client's own default, else strict. */
export function validationMode(header: string | undefined, clientDefault?: ValidationMode): ValidationMode {
  const mode = header?.trim().toLowerCase()
  if (mode === undefined || mode === '') return clientDefault ?? 'strict'
  if (mode === 'strict') return 'strict'
  if (mode === 'lenient') return 'lenient'
  throw new BadRequest(`x-validation-mode must be "strict" or "lenient" (received "${header}")`)
}

/** Service ids never change once a business is registered: kept per container. */
const serviceIds = new Map<string, string>()
async function serviceIdOf(businessId: string): Promise<string> {
  let serviceId = serviceIds.get(businessId)
  if (!serviceId) {
    const business = await getBusiness(businessId)
    if (!business) throw new NotFound(`Business ${businessId} is not registered`)
    serviceId = business.serviceId
    serviceIds.set(businessId, serviceId)
  }
  return serviceId
}

const MESSAGES: Record<InvoiceAction, string> = {
  validate: 'Invoice validated successfully',
  sign: 'Invoice validated and signed successfully',
}

function replyOf(
  action: InvoiceAction,
  invoice: StoredInvoice,
  record: InvoiceRecord,
  warnings: Problem[],
): InvoiceReply {
  return {
    message: MESSAGES[action],
    payment_status: invoice.payment_status,
    irn: invoice.irn,
    ...(action === 'sign' ? { signed_at: record.signedAt } : {}),
    ...(warnings.length ? { warnings } : {}),
  }
}

/** Attempts before giving up on a record other requests keep changing underneath this one. */
const MAX_ATTEMPTS = 5

/**
 * `recordWith`: items to commit in the same transaction as the invoice's write, given the reply that
 * write produces (a batch item's result, lib/batches/worker.ts), so the two happen together or not
 * at all. When the request writes nothing (same content again) there is no transaction to join.
 */
export async function handleInvoice(
  request: InvoiceRequest,
  recordWith?: (reply: InvoiceReply) => TransactItem[],
): Promise<InvoiceReply> {
  const { action, version, caller, body } = request
  const { businessId } = caller
  const mode = validationMode(request.modeHeader, caller.validationMode)
  const [lists, serviceId] = await Promise.all([loadCodeLists(), serviceIdOf(businessId)])
  const result = validateInvoice(body, { version, mode, lists, serviceId })
  // The whole body first, every problem in one 400 (CONTRACT section 9)...
  if (!result.ok) throw invalid(result.problems, 'The invoice is invalid')
  const { invoice, warnings } = result
  // ...and only then ownership: an invoice of another business is not one this client can see.
  if (invoice.business_id !== businessId) {
    throw new NotFound(
      `Business ${invoice.business_id} was not found for this API client: business_id must be your own business's id`,
    )
  }

  const canonical = canonicalInvoice(invoice)
  // Notes sealed now, so the stored copy is made (and gzipped) once.
  const storage = await sealedStorageOf(invoice.irn, invoice, canonical)
  if (!storage) {
    throw new TooLarge('The invoice is too large to store', {
      problems: [
        problem(
          '',
          'NG-SZ-01',
          `The validated invoice is over ${STORED_LIMIT} bytes even compressed: split it into several invoices`,
        ),
      ],
    })
  }
  const content: InvoiceContent = {
    irn: invoice.irn,
    businessId,
    status: action === 'sign' ? 'SIGNED' : 'VALIDATED',
    paymentStatus: invoice.payment_status,
    supplierTin: invoice.accounting_supplier_party.tin,
    ...(invoice.accounting_customer_party ? { buyerTin: invoice.accounting_customer_party.tin } : {}),
    storage,
    contentHash: canonical.contentHash,
    at: new Date().toISOString(),
  }
  if (action === 'sign') {
    // Ed25519 is deterministic: concurrent signers of the same content make the same signature.
    if (!request.sign) throw new Error('A sign request needs a signer (the handler module passes signBytes)')
    const signed = await request.sign(canonical.bytes)
    content.signature = signed.signature
    content.signingKeyId = signed.kid
  }

  // A credit or debit note is bound to its original (CONTRACT 16, ./adjustments.ts), and a signed
  // invoice is listed for supplier search from its sign transaction on (./search-index.ts).
  const note = action === 'sign' ? noteFactsOf(invoice) : undefined
  const spaces = action === 'sign' ? spacesOf(invoice) : undefined
  let numbers: SearchNumbers | undefined
  let written = false
  /**
   * The record as it stands; on a sign's first attempt its search numbers are taken beside the read,
   * so listing costs no round trip of its own (bench/request-cost.ts). A sign that then writes nothing
   * (a replay of the same content, a conflict) voids them in `finally`, as a refused one always has.
   * A note takes them after its original is checked: NG-BR-03 and NG-BR-04 take no numbers.
   */
  const readRecordAndNumber = async (attempt: number) => {
    if (attempt > 0 || !spaces || note) return readInvoiceRecord(invoice.irn)
    const [read, allocated] = await Promise.allSettled([
      readInvoiceRecord(invoice.irn),
      allocateNumbers(businessId, spaces),
    ])
    if (allocated.status === 'fulfilled') {
      numbers = allocated.value
      content.listSeq = numbers.all
    }
    if (read.status === 'rejected') throw read.reason
    if (allocated.status === 'rejected') throw allocated.reason
    return read.value
  }
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const existing = await readRecordAndNumber(attempt)
      if (existing && existing.businessId !== businessId) {
        throw new Conflict(`IRN ${invoice.irn} is registered to another business`)
      }
      if (existing && statusRank(existing.status) >= statusRank('SIGNED')) {
        // Signed content is final: the same content again is the first reply again, anything else a conflict.
        if (existing.contentHash === content.contentHash) return replyOf(action, invoice, existing, warnings)
        throw new Conflict(
          `IRN ${invoice.irn} is already ${existing.status} with different content: a signed invoice cannot change; issue a credit or debit note with a new IRN`,
        )
      }
      if (
        existing &&
        action === 'validate' &&
        existing.status === 'VALIDATED' &&
        existing.contentHash === content.contentHash
      ) {
        return replyOf(action, invoice, existing, warnings)
      }
      // Read again on every attempt: a note that lost to a concurrent one is decided on the new totals.
      const bound = note ? await checkNote(note, businessId) : undefined
      if (spaces && !numbers) {
        numbers = await allocateNumbers(businessId, spaces)
        content.listSeq = numbers.all
      }
      const actor = actorOf(caller)
      // What this write will reply: a new write's times are content.at.
      const callers =
        recordWith?.(replyOf(action, invoice, { signedAt: content.at } as InvoiceRecord, warnings)) ?? []
      // The caller's items last: a batch worker reads its own item's failed condition at the end.
      const also = [
        ...(spaces && numbers ? [listItemPut(businessId, invoice, spaces, numbers, content.at)] : []),
        ...(note && bound ? adjustmentItems(note, bound.original, bound.totals, content.at) : []),
        ...callers,
      ]
      const write = () =>
        existing ? advanceRecord(existing, content, actor, also) : createRecord(content, actor, also)
      let stored: InvoiceRecord | undefined
      try {
        // Notes against one original queue their writes in this process (the decision stays the
        // transaction's condition, made on reads taken outside the queue): concurrent transactions on
        // the original would only cancel each other. Across processes the condition and the retries
        // do the same job, as for the ledger's accounts (lib/platform/db/retry.ts).
        stored = note ? await oneAtATime(`invoice-note:${note.originalIrn}`, write) : await write()
      } catch (error) {
        // The original's condition failed (a concurrent note took what remained) or the transaction
        // kept meeting concurrent ones on the original: read again and decide again.
        const codes = transactionCancellationCodes(error)
        const ours = codes?.slice(0, codes.length - callers.length) ?? []
        const theirs = codes?.slice(codes.length - callers.length) ?? []
        if (theirs.includes('ConditionalCheckFailed')) throw error
        if (ours.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) continue
        throw error
      }
      if (stored) {
        written = true
        return replyOf(action, invoice, stored, warnings)
      }
      // Another request changed the record between the read and the write: read it again and decide again.
    }
    throw new Conflict(`IRN ${invoice.irn} is being changed by other requests right now: retry shortly`)
  } finally {
    if (spaces && numbers && !written) await voidNumbers(businessId, spaces, numbers)
  }
}
