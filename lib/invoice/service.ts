import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { getBusiness } from '#lib/registry/businesses.ts'
import { resolveInvoiceParties } from '#lib/parties/resolve.ts'
import { AGAIN, oneAtATime, withRetries } from '#lib/platform/db/retry.ts'
import {
  type NamedItems,
  refusedBy,
  type TransactItem,
  TransactionRefused,
} from '#lib/platform/db/transact.ts'
import { BadRequest, Conflict, invalid, NotFound, type Problem, TooLarge } from '#lib/platform/errors.ts'
import { listedFindings, listedProblems, type Truncated } from '#lib/platform/reply-bounds.ts'
import type { Signature } from '#lib/platform/signing/signer.ts'
import { canonicalInvoice, STORED_LIMIT, withModeMark } from './canonical.ts'
import { loadCodeLists } from './code-lists.ts'
import { sealedStorageOf } from './notes.ts'
import {
  type En16931Finding,
  type En16931Judge,
  type InvoiceModel,
  invoiceModelOf,
  located,
  type UblReader,
} from './input.ts'
import { ignoredKeys, problem } from './problems.ts'
import type { InvoiceRecord } from './record.ts'
import { advanceRecord, createRecord, type InvoiceContent, readInvoiceRecord } from './repository.ts'
import { checkNote, type NoteFacts, noteFactsOf } from './adjustments.ts'
import {
  allocateNumbers,
  type SearchNumbers,
  type SearchSpaces,
  spacesOf,
  voidNumbers,
} from './search-index.ts'
import { decideInvoiceWrite } from './sign-decision.ts'
import { CALLER_ITEMS, signItems } from './sign-items.ts'
import type { ApiVersion, RuleSet, StoredInvoice } from './schemas.ts'
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
  /** At most 100, then `truncated` counts the rest (lib/platform/reply-bounds.ts). */
  warnings?: Problem[]
  truncated?: Truncated
  /**
   * The EN 16931 business rules' findings on the invoice (CONTRACT 22), at most 100: informational,
   * they never change the reply's status (the validate paths only, given `judgeEn16931`; for a JSON
   * invoice only when asked, `en16931ForJson`).
   */
  en16931?: En16931Finding[]
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
  /** The UBL reader, for a body that may be XML (CONTRACT 22): given by the caller, as the signer is. */
  readUbl?: UblReader
  /** The EN 16931 judge, for the validate paths whose replies report its findings (CONTRACT 22). */
  judgeEn16931?: En16931Judge
  /**
   * A JSON invoice is judged too (the sender asked, `?en16931=true`); a UBL invoice always is: the
   * authority's rules judge a Nigerian invoice, EN 16931's only when asked (CONTRACT 25).
   */
  en16931ForJson?: boolean
  version: ApiVersion
  caller: ApiClientCaller
  body: unknown
  /** The x-validation-mode header, as sent. */
  modeHeader: string | undefined
  /** The request rules of the route's profile: the interface's (default) or the authority's. */
  rules?: RuleSet
  /**
   * A sign's search numbers taken beforehand (a report's range for its receipts, lib/receipts/report.ts),
   * asked with the validated invoice's spaces: undefined when it holds none for those, then they are
   * taken as for any sign. Numbers it gives are this request's: voided when it writes nothing.
   */
  numbersFor?: (spaces: SearchSpaces) => SearchNumbers | undefined
}

/** The request's x-validation-mode, else the client's own default, else unset (the rule set's default). */
function validationMode(
  header: string | undefined,
  clientDefault?: ValidationMode,
): ValidationMode | undefined {
  const mode = header?.trim().toLowerCase()
  if (mode === undefined || mode === '') return clientDefault
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

/** The reply's warnings, bounded before anything is written: the reply to keep is known up front. */
function replyOf(
  action: InvoiceAction,
  invoice: StoredInvoice,
  record: Pick<InvoiceRecord, 'signedAt'>,
  warnings: ReturnType<typeof listedProblems>,
  en16931: En16931Finding[] | undefined,
): InvoiceReply {
  return {
    message: MESSAGES[action],
    payment_status: invoice.payment_status,
    irn: invoice.irn,
    ...(action === 'sign' ? { signed_at: record.signedAt } : {}),
    ...(warnings.warnings.length ? { warnings: warnings.warnings } : {}),
    ...(warnings.truncated ? { truncated: warnings.truncated } : {}),
    ...(en16931 ? { en16931 } : {}),
  }
}

/** Attempts before giving up on a record other requests keep changing underneath this one. */
const MAX_ATTEMPTS = 5

/**
 * `recordWith`: items to commit in the same transaction as the invoice's write, given the reply that
 * write produces (a batch item's result, lib/batches/worker.ts), so the two happen together or not
 * at all. When the request writes nothing (same content again) there is no transaction to join.
 * Each attempt reads, decides (./sign-decision.ts), builds (./sign-items.ts) and writes; a write that
 * lost to a concurrent one is decided again on fresh reads (lib/platform/db/retry.ts).
 */
export async function handleInvoice(
  request: InvoiceRequest,
  recordWith?: (reply: InvoiceReply) => TransactItem[],
): Promise<InvoiceReply> {
  const { action, caller } = request
  const { businessId } = caller
  const { invoice, format, warnings: found, notListed } = await validatedInvoice(request)
  const warnings = listedProblems([], found, notListed)
  // Informational: judged on the validated record, the same for its JSON and its UBL form.
  const en16931 = await findingsOf(request, format, invoice)
  const content = await contentOf(request, invoice)
  // A credit or debit note is bound to its original (CONTRACT 16, ./adjustments.ts), and a signed
  // invoice is listed for supplier search from its sign transaction on (./search-index.ts).
  const note = action === 'sign' ? noteFactsOf(invoice) : undefined
  const numbering = searchNumbering(
    businessId,
    action === 'sign' ? spacesOf(invoice) : undefined,
    note,
    content,
    request.numbersFor,
  )
  const reply = (record: Pick<InvoiceRecord, 'signedAt'>) =>
    replyOf(action, invoice, record, warnings, en16931)
  let written = false
  try {
    return await withRetries(
      async (attempt) => {
        const existing = await numbering.readRecord(attempt)
        const { contentHash } = content
        const decision = decideInvoiceWrite(existing, { irn: invoice.irn, businessId, action, contentHash })
        if (decision.outcome === 'conflict') throw new Conflict(decision.message)
        if (decision.outcome === 'replay') return reply(decision.record)
        // Read again on every attempt: a note that lost to a concurrent one is decided on the new totals.
        const bound = note ? await checkNote(note, businessId) : undefined
        const items = signItems({
          businessId,
          invoice,
          at: content.at,
          listing: await numbering.numbers(),
          ...(note && bound ? { note: { facts: note, ...bound } } : {}),
          // What this write will reply: a new write's times are content.at.
          callers: recordWith?.(reply({ signedAt: content.at })) ?? [],
        })
        const stored = await commit(decision.existing, content, actorOf(caller), items, note?.originalIrn)
        if (stored === AGAIN) return AGAIN
        written = true
        return reply(stored)
      },
      {
        attempts: MAX_ATTEMPTS,
        baseMs: 0,
        exhausted: () => {
          throw new Conflict(`IRN ${invoice.irn} is being changed by other requests right now: retry shortly`)
        },
      },
    )
  } finally {
    if (!written) await numbering.release()
  }
}

/** The body validated in the request's mode, and the caller's own (every problem in one 400 first). */
async function validatedInvoice(request: InvoiceRequest) {
  const { version, caller } = request
  const mode = validationMode(request.modeHeader, caller.validationMode)
  // JSON and UBL XML meet here as one model (./input.ts): everything below judges the model alone.
  const model = await invoiceModelOf(request.body, request.readUbl)
  // Parties named by `id` or `postal_address_id` are resolved first: the rules see, and the record
  // keeps, their values (CONTRACT 17, lib/parties/resolve.ts).
  const [lists, serviceId, named] = await Promise.all([
    loadCodeLists(),
    serviceIdOf(caller.businessId),
    resolveInvoiceParties(model.body, caller.businessId),
  ])
  const result = validateInvoice(named.body, {
    version,
    mode,
    lists,
    serviceId,
    ...(request.rules ? { rules: request.rules } : {}),
  })
  // The whole body first, every problem in one 400 (CONTRACT section 9)...
  if (!result.ok || named.problems.length) {
    const ignored = ignoredKeys(result.warnings)
    throw invalid(
      located(model, [...named.problems, ...(result.ok ? [] : result.problems)]),
      'The invoice is invalid',
      located(model, ignored.listed),
      { ...result.notListed, warnings: (result.notListed.warnings ?? 0) + ignored.more },
      // A refused record's findings too, informational: a body that is not an object has none.
      await findingsOf(request, model.format, named.body),
    )
  }
  // ...and only then ownership: an invoice of another business is not one this client can see.
  if (result.invoice.business_id !== caller.businessId) {
    throw new NotFound(
      `Business ${result.invoice.business_id} was not found for this API client: business_id must be your own business's id`,
    )
  }
  return {
    invoice: result.invoice,
    format: model.format,
    warnings: located(model, result.warnings),
    notListed: result.notListed,
  }
}

/**
 * The EN 16931 findings on a record, at most 100, when the request's endpoint reports them (CONTRACT
 * 22) and the invoice came as UBL or its sender asked (CONTRACT 25). Otherwise the rules' chunk is
 * never loaded: a JSON validate that does not ask pays neither its load nor the judging.
 */
async function findingsOf(
  request: InvoiceRequest,
  format: InvoiceModel['format'],
  record: unknown,
): Promise<En16931Finding[] | undefined> {
  if (!request.judgeEn16931 || (format === 'json' && !request.en16931ForJson)) return undefined
  if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined
  return listedFindings(await request.judgeEn16931(record))
}

/** What the request writes: the canonical content, stored (notes sealed) and, for a sign, signed. */
async function contentOf(request: InvoiceRequest, validated: StoredInvoice): Promise<InvoiceContent> {
  const invoice = withModeMark(validated)
  const canonical = canonicalInvoice(invoice)
  // Notes sealed now, so the stored copy is made (and compressed) once.
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
    businessId: request.caller.businessId,
    status: request.action === 'sign' ? 'SIGNED' : 'VALIDATED',
    paymentStatus: invoice.payment_status,
    supplierTin: invoice.accounting_supplier_party.tin,
    ...(invoice.accounting_customer_party ? { buyerTin: invoice.accounting_customer_party.tin } : {}),
    storage,
    contentHash: canonical.contentHash,
    at: new Date().toISOString(),
  }
  if (request.action === 'sign') {
    // Ed25519 is deterministic: concurrent signers of the same content make the same signature.
    if (!request.sign) throw new Error('A sign request needs a signer (the handler module passes signBytes)')
    const signed = await request.sign(canonical.bytes)
    content.signature = signed.signature
    content.signingKeyId = signed.kid
  }
  return content
}

/**
 * A sign's search numbers (none for a validate). Given by the caller (`numbersFor`: a report's range)
 * or, on the first attempt, taken beside the record's read, so listing costs no round trip of its own
 * (bench/request-cost.ts); a note takes them
 * after its original is checked (NG-BR-03 and NG-BR-04 take no numbers). A sign that then writes
 * nothing (a replay of the same content, a conflict, a refusal) voids them (`release`).
 */
function searchNumbering(
  businessId: string,
  spaces: SearchSpaces | undefined,
  note: NoteFacts | undefined,
  content: InvoiceContent,
  numbersFor: InvoiceRequest['numbersFor'],
) {
  let numbers: SearchNumbers | undefined
  const taken = (allocated: SearchNumbers) => {
    numbers = allocated
    content.listSeq = allocated.all
  }
  // Numbers taken beforehand for these spaces are this request's from here on (voided by `release`).
  const given = spaces && !note ? numbersFor?.(spaces) : undefined
  if (given) taken(given)
  return {
    async readRecord(attempt: number) {
      if (attempt > 0 || !spaces || note || numbers) return readInvoiceRecord(content.irn)
      const [read, allocated] = await Promise.allSettled([
        readInvoiceRecord(content.irn),
        allocateNumbers(businessId, spaces),
      ])
      if (allocated.status === 'fulfilled') taken(allocated.value)
      if (read.status === 'rejected') throw read.reason
      if (allocated.status === 'rejected') throw allocated.reason
      return read.value
    },
    async numbers() {
      if (!spaces) return undefined
      if (!numbers) taken(await allocateNumbers(businessId, spaces))
      return { spaces, numbers: numbers! }
    },
    async release() {
      if (spaces && numbers) await voidNumbers(businessId, spaces, numbers)
    },
  }
}

/**
 * Writes the decided content with its items: the record stored, or AGAIN when the record moved since
 * it was read, or an item of the invoice's (a note's original: a concurrent note took what remained)
 * failed or kept meeting concurrent transactions. A failure of the caller's own items is theirs.
 */
async function commit(
  existing: InvoiceRecord | undefined,
  content: InvoiceContent,
  actor: string,
  items: NamedItems,
  noteOf: string | undefined,
): Promise<InvoiceRecord | typeof AGAIN> {
  const write = () =>
    existing ? advanceRecord(existing, content, actor, items) : createRecord(content, actor, items)
  try {
    // Notes against one original queue their writes in this process (the decision stays the
    // transaction's condition, made on reads taken outside the queue): concurrent transactions on
    // the original would only cancel each other. Across processes the condition and the retries
    // do the same job, as for the ledger's accounts (lib/platform/db/retry.ts).
    return (noteOf ? await oneAtATime(`invoice-note:${noteOf}`, write) : await write()) ?? AGAIN
  } catch (error) {
    if (!(error instanceof TransactionRefused) || refusedBy(error, CALLER_ITEMS)) throw error
    return AGAIN
  }
}
