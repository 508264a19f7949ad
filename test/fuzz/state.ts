import { BatchGetCommand, QueryCommand, type QueryCommandInput, ScanCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { STRIPES } from '#lib/merchant-history/items.ts'
import { DEV } from '../../scripts/local/dev-credentials.ts'

/**
 * What the fuzz test compares before and after each refused request: the balances, invoice states,
 * counters and lists its requests could touch, read by key and by partition (a whole-table Scan
 * reads the reference lists' megabyte every time, far too slow per request). Replay marks and
 * nonces are left out on purpose: authentication writes them for every correctly signed request,
 * refused or not, and that is their job.
 */
export const FUZZ_PRODUCT = 'FUZZ'

const partition = (pk: string): QueryCommandInput => ({
  TableName: tableName(),
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': pk },
  ConsistentRead: true,
})

/** Every invoice record of the table (a test's own table: a Scan is small here). */
async function invoiceRecords(): Promise<unknown[]> {
  const items: unknown[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :irn) AND sk = :invoice',
        ExpressionAttributeValues: { ':irn': 'IRN#', ':invoice': 'INVOICE' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    )
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start)
  return items.sort((a, b) =>
    String((a as { pk: string }).pk).localeCompare(String((b as { pk: string }).pk)),
  )
}

/** An index partition's entries: keys, and what the index projects (lib/platform/db/table.ts). */
const index = (name: 'gsi1' | 'gsi2' | 'gsi3', pk: string): QueryCommandInput => ({
  TableName: tableName(),
  IndexName: name,
  KeyConditionExpression: `${name.slice(0, 4)}pk = :pk`,
  ExpressionAttributeValues: { ':pk': pk },
})

async function queryAll(input: QueryCommandInput): Promise<unknown[]> {
  const items: unknown[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: start }))
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start)
  return items
}

const business = DEV.supplier.businessId
const merchants = DEV.merchants.map((m) => m.merchantId)

/** The state, as one comparable string. */
export async function snapshot(): Promise<string> {
  const single = db().send(
    new BatchGetCommand({
      RequestItems: {
        [tableName()]: {
          Keys: [
            keys.account('0123456789'),
            keys.account('0987654321'),
            keys.notificationTemplateCounter(),
            ...merchants.map((m) => keys.historyHead(m)),
          ],
          ConsistentRead: true,
        },
      },
    }),
  )
  const lists = Promise.all([
    // The business's profile and its invoice-number counters; its invoices (state, payment status).
    queryAll(partition(`BUSINESS#${business}`)),
    invoiceRecords(),
    queryAll(index('gsi3', keys.auditBusinessPartition(business))),
    // Templates of the fuzz's product, every template id, the e-mail list.
    queryAll(partition(`NTEMPLATE#${FUZZ_PRODUCT}`)),
    queryAll(partition(keys.notificationEmailPartition())),
    // Merchant history lists, daily totals and the outbox.
    ...merchants.flatMap((m) =>
      Array.from({ length: STRIPES }, (_, stripe) =>
        queryAll(index('gsi2', keys.historyTimePartition(m, stripe))),
      ),
    ),
    ...merchants.map((m) =>
      queryAll({
        ...partition(`MHIST#${m}`),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
        ExpressionAttributeValues: { ':pk': `MHIST#${m}`, ':day': 'DAY#' },
      }),
    ),
    ...merchants.map((m) => queryAll(index('gsi1', keys.outboxMerchantPartition(m)))),
    // Idempotency records of every caller the fuzz signs as.
    ...[
      `A#${DEV.clients.admin.apiKey}`,
      `B#${DEV.switch.clientId}`,
      `C#${merchants[0]}`,
      `D#${DEV.notifyAdmin.adminKeyId}`,
    ].map((id) => queryAll(partition(`IDEMPOTENCY#${id}`))),
  ])
  const [got, listed] = await Promise.all([single, lists])
  const byKey = (got.Responses?.[tableName()] ?? []).map(stable).sort()
  return stable([byKey, listed])
}

/** JSON with object keys sorted, so two reads of the same items compare equal. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}
