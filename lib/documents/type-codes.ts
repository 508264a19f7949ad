/**
 * The authority's invoice type codes (data/reference/invoice-types.json) against UN/CEFACT UNCL 1001,
 * in one table, written out for every code (CONTRACT section 16). The two lists share numbers with
 * different meanings (the authority's 380 is a credit note, UNCL's 380 a commercial invoice; the
 * authority's 384 a debit note, UNCL's 384 a corrected invoice), so no code is ever passed through.
 *
 * `document` is the UBL 2.1 document the type is exported as: credit notes as `CreditNote`, every
 * other type as `Invoice` (UBL 2.1 has no DebitNote in the Invoice family; a debit note is an
 * Invoice with UNCL 383). Where UNCL 1001 has no counterpart (`exact: false`), the nearest UNCL
 * document is used; the authority's own code always travels beside it (lib/documents/ubl.ts), so the
 * export loses nothing.
 */
export type UblDocument = 'Invoice' | 'CreditNote'

export interface TypeCodeMapping {
  /** The authority's name, as in its list. */
  name: string
  document: UblDocument
  /** UNCL 1001 document name code. */
  uncl: string
  /** False where UNCL 1001 has no document of this meaning and `uncl` is the nearest one. */
  exact: boolean
}

const invoice = (name: string, uncl: string, exact = true): TypeCodeMapping => ({
  name,
  document: 'Invoice',
  uncl,
  exact,
})
const creditNote = (name: string, uncl: string): TypeCodeMapping => ({
  name,
  document: 'CreditNote',
  uncl,
  exact: true,
})

/** authority code -> UBL document and UNCL 1001 code. */
export const TYPE_CODES: Readonly<Record<string, TypeCodeMapping>> = {
  '380': creditNote('Credit Note', '381'),
  '381': invoice('Commercial Invoice', '380'),
  '384': invoice('Debit Note', '383'),
  '385': invoice('Self Billed Invoice', '389'),
  '386': invoice('Factored Invoice', '393'),
  '388': invoice('Statement of Account', '380', false),
  '389': invoice('Purchase Order', '105'),
  '390': invoice('Proforma Invoice', '325'),
  '392': invoice('Consignment Invoice', '395'),
  '393': creditNote('Self-billed Credit Note', '261'),
  // The authority lists the self-billed invoice twice (385 and 394): both are UNCL 389.
  '394': invoice('Self-billed Invoice', '389'),
  '395': invoice('Credit Note Request', '380', false),
  '396': invoice('Invoice Request', '71'),
  '397': invoice('Final Settlement', '380', false),
  '399': invoice('Bill of Lading', '705'),
  '400': invoice('Waybill', '700'),
  '402': invoice('Shipping Instructions', '340'),
  '404': invoice('Certificate of Origin', '861'),
  '406': invoice('Customs Declaration', '380', false),
  '408': invoice('Packing List', '271'),
}

/**
 * The mapping of an authority code. A stored invoice always has a listed code (validation checks it
 * against the list); a code added to the list later and not here yet is exported as a plain Invoice
 * (UNCL 380), never as its own number read as UNCL.
 */
export function typeCodeOf(authorityCode: string): TypeCodeMapping {
  return TYPE_CODES[authorityCode] ?? invoice(`Authority type ${authorityCode}`, '380', false)
}
