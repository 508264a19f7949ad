import { queryAll } from '#lib/platform/db/query.ts'
import type { TransactItem } from '#lib/platform/db/transact.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { invalid, type Problem } from '#lib/platform/errors.ts'
import { eventPut, newEvent } from '#lib/events/event.ts'
import { formatNaira, koboToNaira } from '#lib/platform/money.ts'
import { amountKobo } from './amounts.ts'
import { invoiceOf } from './canonical.ts'
import { problem } from './problems.ts'
import type { InvoiceRecord, PaymentStatus } from './record.ts'
import { readInvoiceRecord } from './repository.ts'
import type { StoredInvoice } from './schemas.ts'

/**
 * Credit and debit notes bound to their original (CONTRACT 16). At sign, a note must name in its
 * first billing_reference an invoice signed by the same business (NG-BR-03), and a credit note may
 * not take the original's credited total past its payable amount (NG-BR-04). The second rule is
 * decided by DynamoDB, not by the read: the note's sign transaction carries a conditional update of
 * the original (`creditedKobo <= payable - this note`, ADD this note), so concurrent notes against one
 * original can never sum past it, whatever their number; a note that loses is re-decided on a fresh
 * read and refused with the remaining amount as it then stands.
 *
 * Money is integer kobo from the JSON number's own decimal form (decimal.js, never binary floating
 * point multiplication); integers add exactly as long as they are safe, which holds for every amount a
 * JSON number carries exactly to two decimals.
 */

export const CREDIT_NOTE_TYPES: ReadonlySet<string> = new Set(['380', '393'])
export const DEBIT_NOTE_TYPES: ReadonlySet<string> = new Set(['384'])

export type NoteKind = 'credit' | 'debit'

/** What a note adjusts: its original, its kind and its amount. */
export interface NoteFacts {
  kind: NoteKind
  noteIrn: string
  originalIrn: string
  typeCode: string
  issueDate: string
  amountKobo: number
  /** The note's buyer TIN (accounting_customer_party.tin), when it names a buyer. */
  buyerTin: string | undefined
}

const payableOf = (invoice: Record<string, unknown> | undefined) =>
  amountKobo((invoice?.legal_monetary_total as { payable_amount?: unknown } | undefined)?.payable_amount)

/** The note's facts when the invoice is a credit or debit note, else undefined. */
export function noteFactsOf(invoice: StoredInvoice): NoteFacts | undefined {
  const typeCode = invoice.invoice_type_code
  const kind = CREDIT_NOTE_TYPES.has(typeCode)
    ? 'credit'
    : DEBIT_NOTE_TYPES.has(typeCode)
      ? 'debit'
      : undefined
  if (!kind) return undefined
  const reference = (invoice.billing_reference as { irn?: unknown }[] | undefined)?.[0]
  return {
    kind,
    noteIrn: invoice.irn,
    // Validation already required a reference (NG-BR-01); an empty one is refused as unknown below.
    originalIrn: typeof reference?.irn === 'string' ? reference.irn : '',
    typeCode,
    issueDate: invoice.issue_date,
    amountKobo: payableOf(invoice as unknown as Record<string, unknown>),
    buyerTin: invoice.accounting_customer_party?.tin,
  }
}

/** The original's payable amount and what its notes have done to it so far, in kobo. */
export interface AdjustmentTotals {
  payableKobo: number
  creditedKobo: number
  debitedKobo: number
}

export function totalsOf(record: InvoiceRecord): AdjustmentTotals {
  return {
    payableKobo: record.payableKobo ?? payableOf(invoiceOf(record)),
    creditedKobo: record.creditedKobo ?? 0,
    debitedKobo: record.debitedKobo ?? 0,
  }
}

export const remainingKobo = (totals: AdjustmentTotals) => totals.payableKobo - totals.creditedKobo

/**
 * The payment status an invoice shows when pulled or listed (A.7, CONTRACT 16): CANCELLED where it
 * was REJECTED, or once credit notes took all of its payable amount (something was credited and
 * nothing remains); its stored status otherwise.
 */
export function shownPaymentStatus(
  status: PaymentStatus,
  totals: AdjustmentTotals,
): 'PENDING' | 'PAID' | 'CANCELLED' {
  const fullyCredited = totals.creditedKobo > 0 && remainingKobo(totals) <= 0
  return fullyCredited || status === 'REJECTED' ? 'CANCELLED' : status
}

const REFERENCE_PATH = 'billing_reference/0/irn'
const AMOUNT_PATH = 'legal_monetary_total/payable_amount'
const BUYER_TIN_PATH = 'accounting_customer_party/tin'

/**
 * A credit note takes back what its original charged its buyer (CONTRACT 18): so its original is an
 * invoice, not another credit note (NG-BR-05: crediting a credit would charge the buyer again), and it
 * names the original's buyer (NG-BR-06: a note to anyone else would cancel the original buyer's
 * invoice without that buyer ever seeing a note).
 */
function creditProblems(note: NoteFacts, original: InvoiceRecord): Problem[] {
  if (note.kind !== 'credit') return []
  const stored = invoiceOf(original) as Partial<StoredInvoice> | undefined
  const problems: Problem[] = []
  const originalType = String(stored?.invoice_type_code ?? '')
  if (CREDIT_NOTE_TYPES.has(originalType)) {
    problems.push(
      problem(
        REFERENCE_PATH,
        'NG-BR-05',
        `Invoice ${note.originalIrn} is itself a credit note (type ${originalType}): a credit note must name in billing_reference the invoice it credits`,
      ),
    )
  }
  const originalBuyer = original.buyerTin ?? stored?.accounting_customer_party?.tin
  if (note.buyerTin !== originalBuyer) {
    problems.push(
      problem(
        BUYER_TIN_PATH,
        'NG-BR-06',
        `A credit note goes to its original's buyer: invoice ${note.originalIrn} was issued to ${originalBuyer ? `TIN ${originalBuyer}` : 'no buyer'}, this note names ${note.buyerTin ? `TIN ${note.buyerTin}` : 'no buyer'}`,
      ),
    )
  }
  return problems
}

/**
 * The original as it stands now (strongly consistent), or the 400 that refuses the note: NG-BR-03
 * when it is not an invoice signed by this business, NG-BR-05 or NG-BR-06 when a credit note names a
 * credit note or another buyer's invoice, NG-BR-04 when a credit note is more than remains.
 */
export async function checkNote(note: NoteFacts, businessId: string) {
  const original = note.originalIrn ? await readInvoiceRecord(note.originalIrn) : undefined
  const signed = original && (original.status === 'SIGNED' || original.status === 'TRANSMITTED')
  // Another business's invoice is refused exactly as a missing one: nothing is revealed about it.
  if (!original || !signed || original.businessId !== businessId) {
    throw invalid(
      [
        problem(
          REFERENCE_PATH,
          'NG-BR-03',
          `A ${note.kind} note must name in billing_reference an invoice your business has signed: ${note.originalIrn || 'no IRN'} is not one`,
        ),
      ],
      'The invoice is invalid',
    )
  }
  const wrongOriginal = creditProblems(note, original)
  if (wrongOriginal.length) throw invalid(wrongOriginal, 'The invoice is invalid')
  const totals = totalsOf(original)
  if (note.kind === 'credit' && note.amountKobo > remainingKobo(totals)) throw overCredit(note, totals)
  return { original, totals }
}

function overCredit(note: NoteFacts, totals: AdjustmentTotals) {
  const remaining = formatNaira(Math.max(0, remainingKobo(totals)))
  return invalid(
    [
      problem(
        AMOUNT_PATH,
        'NG-BR-04',
        `The credit note's payable_amount ${formatNaira(note.amountKobo)} is more than the ${remaining} that remains to be credited on invoice ${note.originalIrn} (payable ${formatNaira(totals.payableKobo)}, credited so far ${formatNaira(totals.creditedKobo)})`,
      ),
    ],
    'The invoice is invalid',
  )
}

/**
 * The items a note's sign transaction adds: the original's conditional update (the decision), the
 * note's item under the original, the original's search list item's totals (when it has one), and for
 * a credit note its `invoice.credited` event.
 */
export function adjustmentItems(
  note: NoteFacts,
  original: InvoiceRecord,
  totals: AdjustmentTotals,
  at: string,
): TransactItem[] {
  const credit = note.kind === 'credit'
  const counter = credit ? 'creditedKobo' : 'debitedKobo'
  const values: Record<string, unknown> = {
    ':amount': note.amountKobo,
    ':one': 1,
    ':payable': totals.payableKobo,
    ':business': original.businessId,
    ':signed': 'SIGNED',
    ':transmitted': 'TRANSMITTED',
  }
  let condition = 'businessId = :business AND #status IN (:signed, :transmitted)'
  if (credit) {
    // The decision: what was credited before this note leaves room for it (payable - amount >= 0 was
    // checked on the read; the condition holds it against every concurrent note).
    values[':max'] = totals.payableKobo - note.amountKobo
    condition += ' AND (attribute_not_exists(creditedKobo) OR creditedKobo <= :max)'
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.invoice(original.irn),
        UpdateExpression: `SET payableKobo = if_not_exists(payableKobo, :payable) ADD ${counter} :amount, noteCount :one`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.invoiceNote(original.irn, note.noteIrn),
          entity: 'INVOICE_NOTE',
          irn: note.noteIrn,
          kind: note.kind,
          invoiceTypeCode: note.typeCode,
          amountKobo: note.amountKobo,
          issueDate: note.issueDate,
          at,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]
  if (original.listSeq !== undefined) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.searchList(original.businessId, original.listSeq),
        UpdateExpression: `SET notes = list_append(if_not_exists(notes, :none), :note) ADD ${counter} :amount`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':none': [],
          ':note': [
            {
              irn: note.noteIrn,
              invoiceTypeCode: note.typeCode,
              amountKobo: note.amountKobo,
              issueDate: note.issueDate,
            },
          ],
          ':amount': note.amountKobo,
        },
      },
    })
  }
  if (credit) {
    const event = newEvent(
      'invoice.credited',
      original.businessId,
      {
        irn: original.irn,
        status: original.status,
        payment_status: original.paymentStatus,
        sequence: typeof original.revision === 'number' ? original.revision : 1,
        credit_note_irn: note.noteIrn,
        invoice_type_code: note.typeCode,
        amount: koboToNaira(note.amountKobo),
        credited_at: at,
      },
      at,
    )
    items.push(eventPut(event))
  }
  return items
}

/** A note as the pulled invoice lists it. */
export interface NoteView {
  irn: string
  invoice_type_code: string
  amount: number
  issue_date: string
}

/** `adjustments` of a pulled invoice (CONTRACT 16). */
export interface Adjustments {
  credited: number
  debited: number
  remaining: number
  notes: NoteView[]
}

interface StoredNote {
  irn: string
  invoiceTypeCode: string
  amountKobo: number
  issueDate: string
  at?: string
}

export const noteView = (note: StoredNote): NoteView => ({
  irn: note.irn,
  invoice_type_code: note.invoiceTypeCode,
  amount: koboToNaira(note.amountKobo),
  issue_date: note.issueDate,
})

/** The adjustments view from totals and the stored notes. */
export function adjustmentsView(totals: AdjustmentTotals, notes: StoredNote[]): Adjustments {
  return {
    credited: koboToNaira(totals.creditedKobo),
    debited: koboToNaira(totals.debitedKobo),
    remaining: koboToNaira(Math.max(0, remainingKobo(totals))),
    notes: notes.map(noteView),
  }
}

/**
 * The invoice's adjustments: its totals from the record, and its notes, read (one Query of the
 * original's own partition) only when it has any.
 */
export async function adjustmentsOf(record: InvoiceRecord): Promise<Adjustments> {
  const notes: StoredNote[] = []
  if (record.noteCount) {
    notes.push(
      ...(await queryAll<StoredNote>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :notes)',
        ExpressionAttributeValues: { ':pk': keys.invoice(record.irn).pk, ':notes': keys.invoiceNotePrefix() },
        ConsistentRead: true,
      })),
    )
    notes.sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? -1 : (a.at ?? '') > (b.at ?? '') ? 1 : 0))
  }
  return adjustmentsView(totalsOf(record), notes)
}
