import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import { currentMode } from '#lib/platform/mode.ts'
import { packJson, unpackValue } from './packed-json.ts'
import type { InvoiceRecord } from './record.ts'
import type { StoredInvoice } from './schemas.ts'

/**
 * The invoice's canonical form (RFC 8785 JSON Canonicalization Scheme): the bytes that are hashed
 * and signed. Two requests with the same content, in any key order or either issue_time reading,
 * give the same bytes.
 */
export interface CanonicalInvoice {
  /** The canonical JSON and its UTF-8 bytes, made when first asked for (validation needs neither). */
  readonly json: string
  readonly bytes: Buffer
  /** The length of `bytes`, known without making them. */
  byteLength: number
  /** SHA-256 of the canonical bytes, lower-case hex. */
  contentHash: string
  /** Each top-level member's canonical JSON, in canonical order: the stored copy is built from these. */
  members: [name: string, json: string][]
}

/** Thrown inside sortedCopy for a value JSON.stringify would not write as RFC 8785 does. */
const NOT_PLAIN = Symbol('not plain JSON data')
/** Names JavaScript enumerates before all others, in numeric order: RFC 8785 sorts them as strings. */
const INDEX_LIKE = /^(0|[1-9]\d*)$/

/**
 * The RFC 8785 order of an object's member names (UTF-16 code units, which is what the default sort
 * compares), remembered per list of names: the objects of an invoice come in a few dozen shapes
 * (every line has the same names in the same order), so each shape's names are checked and sorted
 * once, not once per object. A list is found by its first name and then compared name by name
 * (property names are interned strings, so each comparison is a pointer comparison); nothing is
 * allocated to look one up. Bounded, so that no value can make a lookup long or the memory large:
 * at most SHAPES_PER_NAME lists per first name (past that, a list is sorted each time), and past
 * SHAPE_LIMIT lists in all the memory starts again.
 */
const SHAPES_PER_NAME = 8
const SHAPE_LIMIT = 1000
const shapes = new Map<string, { names: string[]; sorted: string[] }[]>()
let shapeCount = 0

function sortedNames(names: string[]): string[] {
  const first = names[0] ?? ''
  const known = shapes.get(first)
  if (known) {
    next: for (const shape of known) {
      if (shape.names.length !== names.length) continue
      for (let i = 0; i < names.length; i++) if (shape.names[i] !== names[i]) continue next
      return shape.sorted
    }
  }
  // `out.__proto__ = ...` would set the copy's prototype instead of a member.
  for (const name of names) if (INDEX_LIKE.test(name) || name === '__proto__') throw NOT_PLAIN
  const sorted = [...names].sort()
  if (shapeCount >= SHAPE_LIMIT) {
    shapes.clear()
    shapeCount = 0
  }
  const list = shapes.get(first) ?? []
  if (list.length < SHAPES_PER_NAME) {
    list.push({ names, sorted })
    shapes.set(first, list)
    shapeCount++
  }
  return sorted
}

/**
 * A copy with every object's members in RFC 8785 order, so JSON.stringify writes the canonical form:
 * JSON.stringify already writes strings and numbers as RFC 8785 says (it is defined on ECMAScript's
 * serialisation). Measured at about a third of the `canonicalize` package's time on a 1,000-line
 * invoice (BENCHMARKS.md), and a third less again with each shape's order remembered.
 */
function sortedCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortedCopy)
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN
  const out: Record<string, unknown> = {}
  for (const name of sortedNames(Object.keys(value))) {
    out[name] = sortedCopy((value as Record<string, unknown>)[name])
  }
  return out
}

/** RFC 8785 JSON of any parsed JSON value; the `canonicalize` package for the rare unusual one. */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(sortedCopy(value))
  } catch (error) {
    if (error !== NOT_PLAIN) throw error
    const json = canonicalize(value)
    if (json === undefined) throw new Error('value could not be canonicalised')
    return json
  }
}

/**
 * The invoice as it is stored, hashed and signed: a test-mode invoice carries `"mode": "test"`
 * (CONTRACT 18), so its canonical JSON says what it is to anyone holding it; a live invoice is as it
 * always was (no `mode` member), so live hashes and signatures do not change. No request can set
 * `mode` itself: it is no field of the invoice schemas, and unknown keys are dropped.
 */
export const withModeMark = (invoice: StoredInvoice): StoredInvoice =>
  currentMode() === 'test' ? ({ ...invoice, mode: 'test' } as StoredInvoice) : invoice

/**
 * The canonical form of a validated invoice, member by member. The hash and the byte length are
 * taken from the members as they are, with no joined copy of the whole: a validate needs only the
 * hash (the stored copy is built from the members), so the joined JSON and its bytes, 430 KB each
 * for a 1,000-line invoice, are made only when something asks for them (signing).
 */
export function canonicalInvoice(invoice: StoredInvoice): CanonicalInvoice {
  const members = Object.keys(invoice)
    .filter((name) => (invoice as Record<string, unknown>)[name] !== undefined)
    .sort()
    .map((name): [string, string] => [name, canonicalJson((invoice as Record<string, unknown>)[name])])
  // `{` name `:` value, joined by `,`, `}`: hashed piece by piece, each piece's UTF-8 length counted.
  const hash = createHash('sha256').update('{')
  let byteLength = 2 + Math.max(0, members.length - 1)
  members.forEach(([name, value], i) => {
    const head = `${i ? ',' : ''}${JSON.stringify(name)}:`
    hash.update(head).update(value)
    byteLength += Buffer.byteLength(head) - (i ? 1 : 0) + Buffer.byteLength(value)
  })
  const contentHash = hash.update('}').digest('hex')
  let json: string | undefined
  let bytes: Buffer | undefined
  return {
    get json() {
      json ??= `{${members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`
      return json
    },
    get bytes() {
      bytes ??= Buffer.from(this.json, 'utf8')
      return bytes
    },
    byteLength,
    contentHash,
    members,
  }
}

/**
 * How the invoice is stored: its canonical JSON packed (./packed-json.ts: zlib with a dictionary of
 * the invoice's member names; gzip before) in `invoiceGzip` whenever that is smaller than the plain
 * map (DynamoDB bills an item by its bytes, 1 write unit per KB and 1 strongly consistent read unit
 * per 4 KB, so fewer bytes never cost more units). Measured on the fixtures' invoices (BENCHMARKS.md,
 * "The invoice body stored gzipped"): 1 line, a 3.9 KB map against 1.2 KB gzipped; 10 lines, 8.5 KB
 * against 1.4 KB; 100 lines, 54 KB against 4 KB; packed, about a third less again for small invoices
 * (BENCHMARKS.md, tenth round). A plain `invoice` map is kept only where compression would not make
 * it smaller, and is still what older items hold: every reader goes through `invoiceOf`, which reads
 * both. Above STORED_LIMIT even the packed copy does not fit in an item (400 KB), and the request is
 * refused (413).
 */
export const STORED_LIMIT = 350_000
/**
 * Over this, deflate at its fastest level: on a 1,000-line invoice it takes a tenth of the default
 * level's time for a copy about 30% larger (BENCHMARKS.md, "Large invoices", measured with gzip:
 * the same deflate). Under it, the default level, whose time on a few KB is a few tens of
 * microseconds and whose copy is 5-15% smaller.
 */
export const FAST_PACK_OVER = 300_000

export type InvoiceStorage =
  | { invoice: StoredInvoice; invoiceGzip?: undefined }
  | { invoice?: undefined; invoiceGzip: Uint8Array }

/**
 * How an invoice is stored, or undefined when it is too large to store at all. `replaced` gives
 * top-level members to store instead of the invoice's own (the sealed notes): the packed copy is
 * then the canonical JSON with those members' values swapped, built from `canonical.members` with
 * no second serialisation.
 */
export function storageOf(
  invoice: StoredInvoice,
  canonical: CanonicalInvoice,
  replaced: Record<string, string> = {},
): InvoiceStorage | undefined {
  const packed = packJson(utf8Of(canonical.members, replaced), {
    fast: canonical.byteLength > FAST_PACK_OVER,
  })
  if (packed.length > STORED_LIMIT) return undefined
  const inline = { ...invoice, ...replaced }
  // The map's size as DynamoDB counts it is within a few percent of its canonical JSON's.
  if (canonical.byteLength <= packed.length) return { invoice: inline }
  return { invoiceGzip: packed }
}

/**
 * The UTF-8 bytes of `{"name":value,...}` with the replaced members' values swapped in, written
 * piece by piece into one buffer: no joined string of the whole (430 KB for a 1,000-line invoice) is
 * made only to be encoded again.
 */
function utf8Of(members: CanonicalInvoice['members'], replaced: Record<string, string>): Buffer {
  const pieces = members.map(([name, value], i): [string, string] => [
    `${i ? ',' : '{'}${JSON.stringify(name)}:`,
    name in replaced ? JSON.stringify(replaced[name]) : value,
  ])
  let length = 1
  for (const [head, value] of pieces) length += Buffer.byteLength(head) + Buffer.byteLength(value)
  if (pieces.length === 0) length++
  const bytes = Buffer.allocUnsafe(length)
  let at = pieces.length === 0 ? bytes.write('{') : 0
  for (const [head, value] of pieces) {
    at += bytes.write(head, at)
    at += bytes.write(value, at)
  }
  if (bytes.write('}', at) + at !== length) throw new Error('stored copy: UTF-8 length miscounted')
  return bytes
}

/**
 * The stored invoice of a record, however it was stored: every reader of the body goes through here
 * (records written before the body was gzipped by default hold the plain `invoice` map).
 */
export function invoiceOf(
  record: Pick<InvoiceRecord, 'invoice' | 'invoiceGzip'>,
): Record<string, unknown> | undefined {
  if (record.invoice) return record.invoice
  if (record.invoiceGzip) return unpackValue<Record<string, unknown>>(record.invoiceGzip)
  return undefined
}
