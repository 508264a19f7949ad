import { invalid } from '#lib/platform/errors.ts'

/**
 * Every item is sized before it is written (CONTRACT 18): one over DynamoDB's 400 KB would be
 * refused by DynamoDB after the request's other writes, a 500 for a request whose part was already
 * done. The writers (./write.ts, ./transact.ts, ./batch.ts) call `assertItemFits` first, and an item
 * over the bound is a 400 naming its largest field, `NG-SC-04`, before anything is written. The text
 * bound on every request string (lib/platform/text/length-bound.ts) keeps items far under it; this
 * is the guarantee that holds whatever a record builder puts together.
 */

/** DynamoDB's item limit, names and values together (400 KB). */
export const MAX_ITEM_BYTES = 400 * 1024

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8')

/** A value's size as DynamoDB counts it (the document client's native values, before marshalling). */
export function valueSize(value: unknown): number {
  if (typeof value === 'string') return utf8(value)
  if (typeof value === 'number' || typeof value === 'bigint') return 21
  if (typeof value === 'boolean' || value === null || value === undefined) return 1
  if (value instanceof Uint8Array) return value.byteLength
  if (value instanceof Set) return [...value].reduce<number>((sum, v) => sum + valueSize(v), 0)
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + 1 + valueSize(v), 3)
  if (typeof value === 'object') {
    let size = 3
    for (const [name, v] of Object.entries(value)) size += utf8(name) + 1 + valueSize(v)
    return size
  }
  return 0
}

/** The path of the largest leaf under `value`: what to name when the item is too large. */
function largestPath(value: unknown, path: string): string {
  let current = value
  let at = path
  for (;;) {
    const entries =
      current instanceof Uint8Array || current instanceof Set
        ? []
        : Array.isArray(current)
          ? current.map((v, i) => [String(i), v] as const)
          : typeof current === 'object' && current !== null
            ? Object.entries(current)
            : []
    if (!entries.length) return at
    const [name, child] = entries.reduce((a, b) => (valueSize(b[1]) > valueSize(a[1]) ? b : a))
    current = child
    at = `${at}/${name}`
  }
}

/**
 * The item's attributes (a Put's Item, an Update's values) within DynamoDB's limit, or a 400 naming
 * the field at fault. `record` names the kind of record in the message.
 */
export function assertItemFits(attributes: Record<string, unknown> | undefined, record: string): void {
  if (!attributes) return
  const size = valueSize(attributes)
  if (size <= MAX_ITEM_BYTES) return
  const path = largestPath(attributes, '').slice(1)
  throw invalid(
    [
      {
        path,
        code: 'NG-SC-04',
        message: `makes the ${record} ${size} bytes, over the ${MAX_ITEM_BYTES} a record can hold: send a shorter value`,
      },
    ],
    'The request is too large to store',
  )
}
