import type { Problem } from '#lib/platform/errors.ts'
import { mapUbl, xpathOf } from './ubl-map.ts'
import { type UblSchemaModel, ublSchemaProblems } from './ubl-schema.ts'
import model from './ubl-schema-model.json' with { type: 'json' }
import { readXml, XmlReadError } from './xml-reader.ts'

/**
 * UBL in (CONTRACT 22): a UBL 2.1 Invoice or CreditNote sent as XML, read safely (xml-reader.ts: no
 * DOCTYPE, no entity beyond XML's own, bounded depth and element count), checked against the OASIS
 * UBL 2.1 schema (ubl-schema.ts) and mapped to the invoice record (ubl-map.ts), which then meets the
 * same rules as a JSON body. Every problem names the XPath of the element at fault:
 *   NG-XML-01  not well-formed, a DOCTYPE, or past the bounds
 *   NG-XML-02  not valid against the UBL 2.1 schema
 *   NG-XML-03  valid UBL that has no invoice record (a type code the authority has no type for)
 * This module is the whole XML path of the invoice functions: loaded only when a request sends XML
 * (lib/invoice/input.ts), so a JSON request never pays for it.
 */

type Json = Record<string, unknown>

export type UblInput =
  | {
      ok: true
      invoice: Json
      /** The XPath of the element a record path's value came from (or of its nearest ancestor read). */
      xpathOf: (recordPath: string) => string
    }
  | { ok: false; problems: Problem[] }

/** Most problems listed (the reply's bound, lib/platform/reply-bounds.ts, says "and more" past it). */
const MAX_PROBLEMS = 101

export function invoiceFromUbl(text: string): UblInput {
  let root: ReturnType<typeof readXml>
  try {
    root = readXml(text)
  } catch (error) {
    if (!(error instanceof XmlReadError)) throw error
    const where = `line ${error.line}, column ${error.column}`
    return {
      ok: false,
      problems: [{ path: error.path || '/', code: 'NG-XML-01', message: `${error.message} (${where})` }],
    }
  }
  const schema = ublSchemaProblems(root, model as unknown as UblSchemaModel, MAX_PROBLEMS)
  if (schema.length) {
    return {
      ok: false,
      problems: schema.map((p) => ({ path: p.path, code: 'NG-XML-02', message: p.message })),
    }
  }
  const mapped = mapUbl(root)
  if (mapped.problems.length) {
    return {
      ok: false,
      problems: mapped.problems.map((p) => ({ path: p.path, code: 'NG-XML-03', message: p.message })),
    }
  }
  return {
    ok: true,
    invoice: mapped.invoice,
    xpathOf: (recordPath) => xpathOf(recordPath, mapped.xpaths, root.path),
  }
}
