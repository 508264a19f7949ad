import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { type IndexName, indexNamed } from '#lib/platform/db/table.ts'
import {
  buyerSpace,
  currencySpace,
  indexKeys,
  type ListItem,
  SPACE_INDEX,
  typeSpace,
} from './search-index.ts'

/**
 * The operator's repair of supplier search numbers (docs/capacity.md, "Numbers that are not used"):
 * a sign takes its numbers just before its transaction, and a function that dies between the two
 * leaves numbers no list item holds. Such a gap is counted in its space's total and shows as a page
 * one row short until it is voided here: a void item at the number (as a refused sign leaves) and the
 * counter's `voids` raised by one.
 *
 * A number is a gap only once no sign can still be writing it: the counters are read first, then the
 * command waits longer than a sign function lives (`settleMs`), and only numbers at or below the
 * counters read before the wait are judged. The lists are read whole (one Query per space, paged):
 * an operator command, run for one business when its totals disagree with its pages.
 */

/** The gaps found in one space, and whether they were voided. */
export interface SpaceGaps {
  space: string
  counter: number
  gaps: number[]
}

/** Which index holds a filter space's list (undefined: the ALL list, in the table). */
function indexOf(space: string): IndexName | undefined {
  if (space.startsWith(buyerSpace(''))) return SPACE_INDEX.buyer
  if (space.startsWith(typeSpace(''))) return SPACE_INDEX.type
  if (space.startsWith(currencySpace(''))) return SPACE_INDEX.currency
  return undefined
}

/** The numbers taken in a space: every list item, listed or void, of the ALL list or a filter's index. */
async function numbersIn(businessId: string, space: string): Promise<Set<number>> {
  const index = indexOf(space)
  const items = index
    ? await queryAll({
        IndexName: index,
        KeyConditionExpression: `${indexNamed(index).partitionKey} = :pk`,
        ExpressionAttributeValues: { ':pk': keys.searchSpacePartition(businessId, space) },
      })
    : await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.searchListPartition(businessId) },
        ConsistentRead: true,
      })
  return new Set(items.map((item) => Number(item[index ? indexNamed(index).sortKey : 'sk'])))
}

/** The spaces the business's invoices are numbered in, from its ALL list (every invoice is in it). */
async function spacesOf(businessId: string): Promise<string[]> {
  const items = (await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.searchListPartition(businessId) },
    ConsistentRead: true,
  })) as unknown as ListItem[]
  const spaces = new Set<string>(['ALL'])
  for (const item of items) {
    if (item.entity !== 'INVOICE_LIST') continue
    if (item.buyerTin) spaces.add(buyerSpace(item.buyerTin))
    spaces.add(typeSpace(item.invoiceTypeCode))
    spaces.add(currencySpace(item.currency))
  }
  return [...spaces]
}

async function counterOf(businessId: string, space: string): Promise<number> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.searchCounter(businessId, space),
      ConsistentRead: true,
    }),
  )
  return typeof out.Item?.n === 'number' ? out.Item.n : 0
}

/** Fills one gap: a void item at the number, unless a list item holds it after all, then the count. */
async function voidGap(businessId: string, space: string, seq: number): Promise<boolean> {
  const index = indexOf(space)
  const at = index
    ? {
        ...keys.searchGap(businessId, space, seq),
        ...indexKeys(index, keys.searchSpacePartition(businessId, space), keys.searchSeq(seq)),
      }
    : keys.searchList(businessId, seq)
  const voided = await writeIf({
    Put: {
      Item: { ...at, entity: 'INVOICE_LIST_VOID', businessId, gap: { space, seq } },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  if (!voided.written) return false
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.searchCounter(businessId, space),
      UpdateExpression: 'ADD voids :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  )
  return true
}

export async function voidSearchGaps(
  businessId: string,
  options: {
    settleMs: number
    dryRun?: boolean
    /** How the settle wait is spent (the CLI counts it down); a plain timer by default. */
    wait?: (ms: number) => Promise<void>
    /** Told before each list is read (the CLI's progress). */
    onSpace?: (space: string) => void
  },
): Promise<SpaceGaps[]> {
  const spaces = await spacesOf(businessId)
  const counters = new Map(
    await Promise.all(spaces.map(async (s) => [s, await counterOf(businessId, s)] as const)),
  )
  // Any sign that took a number at or below these has committed or died by the end of the wait.
  await (options.wait ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms))))(options.settleMs)
  const found: SpaceGaps[] = []
  for (const space of spaces) {
    options.onSpace?.(space)
    const counter = counters.get(space) ?? 0
    const taken = await numbersIn(businessId, space)
    const gaps: number[] = []
    for (let seq = 1; seq <= counter; seq++) if (!taken.has(seq)) gaps.push(seq)
    if (!options.dryRun) {
      const filled: number[] = []
      for (const seq of gaps) if (await voidGap(businessId, space, seq)) filled.push(seq)
      found.push({ space, counter, gaps: filled })
    } else found.push({ space, counter, gaps })
  }
  return found.filter((s) => s.gaps.length > 0)
}
