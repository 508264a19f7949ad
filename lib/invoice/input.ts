import { invalid, type Problem } from '#lib/platform/errors.ts'
import { XmlBody } from '#lib/platform/http/xml-body.ts'

/**
 * Where an invoice sent as JSON and one sent as UBL 2.1 XML (CONTRACT 22) meet: both leave here as
 * the same model, the invoice record's JSON, which the validation pipeline (./service.ts
 * validatedInvoice) then judges with the same rules for both. A rule judging the model (EN 16931's
 * `judgeInvoice(model)` included) goes after this function and sees no difference; its problems are
 * placed with `locate`, which for XML turns a record path into the XPath of the element at fault.
 *
 * The XML path (saxes, the UBL schema model, the mapping: lib/documents/ubl-in.ts) is the caller's
 * `readUbl`, imported on the first XML request only, so a JSON request never loads it.
 */

export interface InvoiceModel {
  /** The invoice record as JSON, as a JSON body sends it. */
  body: unknown
  /** Where a problem at a record path is reported: the path itself (JSON), the element's XPath (XML). */
  locate: (recordPath: string) => string
  format: 'json' | 'xml'
}

/**
 * A batch item (lib/batches) sent as a string that starts with `<` is a UBL document, read as an XML
 * body is; any other item is the JSON invoice (a string that is not XML stays a JSON type error).
 */
export const asInvoiceInput = (item: unknown): unknown =>
  typeof item === 'string' &&
  item
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('<')
    ? new XmlBody(item)
    : item

/**
 * Reads a UBL document into the invoice record (lib/documents/ubl-in-loader.ts readUbl), given by the
 * callers that take XML, as the signer is: so lib/invoice does not depend on lib/documents.
 */
export type UblReader = (
  text: string,
) => Promise<
  | { ok: true; invoice: Record<string, unknown>; xpathOf: (recordPath: string) => string }
  | { ok: false; problems: Problem[] }
>

/** The request body as the invoice model, or a 400 listing every problem of the XML at its XPath. */
export async function invoiceModelOf(body: unknown, readUbl: UblReader | undefined): Promise<InvoiceModel> {
  if (!(body instanceof XmlBody)) return { body, locate: (path) => path, format: 'json' }
  if (!readUbl) throw new Error('An XML body reached an invoice service that was given no UBL reader')
  const read = await readUbl(body.text)
  if (!read.ok) throw invalid(read.problems, 'The UBL document is invalid')
  return { body: read.invoice, locate: read.xpathOf, format: 'xml' }
}

/** Problems at their place in the document sent (a no-op for JSON). */
export const located = (model: InvoiceModel, problems: readonly Problem[]): Problem[] =>
  model.format === 'json' ? [...problems] : problems.map((p) => ({ ...p, path: model.locate(p.path) }))

/** One EN 16931 business-rule finding (lib/en16931/model.ts Finding): the official rule and the element's XPath. */
export interface En16931Finding {
  rule: string
  flag: 'fatal' | 'warning'
  path: string
  message: string
}

/**
 * Judges an invoice record by the EN 16931 business rules (lib/en16931/loader.ts judgeEn16931), given
 * by the validate handlers, as the UBL reader is: the rules load on the first validate request.
 */
export type En16931Judge = (record: object) => Promise<En16931Finding[]>
