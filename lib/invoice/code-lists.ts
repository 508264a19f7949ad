import { BatchGetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { DependencyDown } from '#lib/platform/errors.ts'
import { type ListHead, listWritesInThisProcess, readList } from '#lib/reference/store.ts'
import type { ReferenceListName } from '#lib/reference/lists.ts'

/**
 * The reference lists an invoice is checked against (CONTRACT section 4), as lookup sets. Building
 * them is pure (`buildCodeLists`), so the validator and the benchmark can be given lists directly;
 * `loadCodeLists` reads them from the table for a request.
 */
export interface CodeLists {
  invoiceTypes: ReadonlySet<string>
  currencies: ReadonlySet<string>
  /** ISO 3166-1 alpha-2. */
  countries: ReadonlySet<string>
  states: ReadonlySet<string>
  /** LGA code -> its state code. Checked against only when `complete`; until then, by form. */
  lgas: { complete: boolean; stateOf: ReadonlyMap<string, string> }
  taxCategories: ReadonlySet<string>
  paymentMeans: ReadonlySet<string>
  /** HS codes as 6 digits (the list's `0101.21` without the dot). */
  hsCodes: ReadonlySet<string>
  /** ISIC Rev.4 classes (4 digits). */
  isicCodes: ReadonlySet<string>
}

export const CODE_LIST_NAMES = [
  'invoice-types',
  'currencies',
  'countries',
  'states',
  'lgas',
  'tax-categories',
  'payment-means',
  'product-codes',
  'service-codes',
] as const satisfies readonly ReferenceListName[]
export type CodeListName = (typeof CODE_LIST_NAMES)[number]

export interface ListRows {
  rows: readonly unknown[]
  complete: boolean
}

const field = (row: unknown, name: string): string | undefined => {
  const value = (row as Record<string, unknown> | null)?.[name]
  return typeof value === 'string' ? value : undefined
}

const setOf = (list: ListRows, name: string) =>
  new Set(list.rows.map((row) => field(row, name)).filter((v): v is string => v !== undefined))

/** HS codes are compared as their first 6 digits, however they are punctuated. */
export const hsDigits = (code: string) => code.replace(/[.\s]/g, '')

/** The lookup sets from each list's rows, however they were read. */
export function buildCodeLists(rowsOf: (name: CodeListName) => ListRows): CodeLists {
  const lists = Object.fromEntries(CODE_LIST_NAMES.map((name) => [name, rowsOf(name)])) as Record<
    CodeListName,
    ListRows
  >
  const lgas = lists.lgas
  return {
    invoiceTypes: setOf(lists['invoice-types'], 'code'),
    currencies: setOf(lists.currencies, 'code'),
    countries: setOf(lists.countries, 'alpha_2'),
    states: setOf(lists.states, 'code'),
    lgas: {
      complete: lgas.complete,
      stateOf: new Map(
        lgas.rows.flatMap((row) => {
          const code = field(row, 'code')
          const state = field(row, 'state_code')
          return code && state ? [[code, state] as const] : []
        }),
      ),
    },
    taxCategories: setOf(lists['tax-categories'], 'code'),
    paymentMeans: setOf(lists['payment-means'], 'code'),
    hsCodes: new Set([...setOf(lists['product-codes'], 'hscode')].map(hsDigits)),
    isicCodes: setOf(lists['service-codes'], 'code'),
  }
}

/** The built sets, kept while every list's ETag is the one they were built from. */
let built: { etags: string; lists: CodeLists; checkedUntil: number; writes: number } | undefined

const DEFAULT_SECONDS = 60
/**
 * How long a container uses its code lists before checking the lists' ETags again: the staleness
 * bound stated in docs/operations.md (a list loaded with `reference load` applies within it). Env
 * CODE_LIST_CACHE_SECONDS, default 60; 0 checks on every request.
 */
export function codeListCacheSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.CODE_LIST_CACHE_SECONDS ?? DEFAULT_SECONDS)
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_SECONDS
}

/**
 * The current code lists. Within CODE_LIST_CACHE_SECONDS of the last check, the container's built
 * sets with no read at all; after it, one BatchGetItem reads the nine lists' META items (the ETag
 * check), and rows are read only for a list that changed (readList's own cache).
 */
export async function loadCodeLists(): Promise<CodeLists> {
  const writes = listWritesInThisProcess()
  if (built && built.checkedUntil > Date.now() && built.writes === writes) return built.lists
  const checkedUntil = Date.now() + codeListCacheSeconds() * 1000
  const out = await db().send(
    new BatchGetCommand({
      RequestItems: { [tableName()]: { Keys: CODE_LIST_NAMES.map((name) => keys.referenceMeta(name)) } },
    }),
  )
  const heads = new Map<string, ListHead>()
  for (const item of out.Responses?.[tableName()] ?? []) {
    const { pk: _pk, sk: _sk, ...head } = item
    heads.set((head as ListHead).name, head as ListHead)
  }
  // Unprocessed keys (throttling) or a list never loaded: the lists are needed for every invoice.
  const missing = CODE_LIST_NAMES.filter((name) => !heads.has(name))
  if (missing.length) {
    const unprocessed = Object.keys(out.UnprocessedKeys ?? {}).length > 0
    throw new DependencyDown(
      unprocessed
        ? 'The reference lists could not be read just now: retry shortly'
        : `Reference lists not loaded in this deployment: ${missing.join(', ')}; run "npm run cli -- reference load --all"`,
    )
  }
  // A list's ETag covers its rows only; marking the LGA list complete changes the rule, not the rows.
  const etags = CODE_LIST_NAMES.map(
    (name) => `${heads.get(name)!.etag}${heads.get(name)!.complete ? '+' : '-'}`,
  ).join(',')
  if (built?.etags === etags) {
    built.checkedUntil = checkedUntil
    built.writes = writes
    return built.lists
  }
  const read = new Map(
    await Promise.all(
      CODE_LIST_NAMES.map(async (name) => [name, await readList(name, heads.get(name))] as const),
    ),
  )
  const lists = buildCodeLists((name) => ({
    rows: read.get(name)?.rows ?? [],
    complete: heads.get(name)!.complete,
  }))
  built = { etags, lists, checkedUntil, writes }
  return lists
}
