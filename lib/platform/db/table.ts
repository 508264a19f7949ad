/**
 * The single table's shape, shared by the CDK DataStack and by local table creation so the two
 * cannot drift apart.
 */
export const TTL_ATTRIBUTE = 'expiresAt'

/**
 * What an index holds besides its keys (the table's and its own, which every index carries). INCLUDE
 * names attributes: DynamoDB takes at most 20 an index and 100 across the table's indexes, an
 * attribute projected into two counting twice (`projectionProblems` holds a declaration to both,
 * at synth and in the unit tests, because DynamoDB Local enforces neither).
 */
export type Projection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] }

export interface IndexDefinition {
  indexName: string
  partitionKey: string
  sortKey: string
  projection: Projection
}

/** A merchant history row as Area C shows it: listed on its own, and with its numbers by reference. */
const HISTORY_ROW = [
  'amountKobo',
  'completedAt',
  'merchantReference',
  'providerReference',
  'accountNumber',
  'status',
  'type',
] as const

/**
 * What each listing read from an index shows, by the items it lists: the attributes its reader reads
 * (lib/platform/db/index-reads.ts). With every index projecting ALL these cost nothing more; were an
 * index to project less, a listing it does not cover reads its items after the index, unchanged.
 */
export const LISTED = {
  /** Supplier search's filter spaces (lib/invoice/search.ts): the list item's summary. */
  invoiceSummary: [
    'entity',
    'irn',
    'invoiceTypeCode',
    'issueDate',
    'currency',
    'buyerTin',
    'buyerName',
    'payableKobo',
    'creditedKobo',
    'debitedKobo',
    'paymentStatus',
    'signedAt',
    'notes',
  ],
  /** A merchant history row as Area C shows it (lib/merchant-history/service.ts toRecord). */
  historyRow: HISTORY_ROW,
  /** A history item read as a date bound on the time index: its numbers only. */
  historyBound: ['seqAll', 'okCount', 'failedCount'],
  /** A reference's rows, filtered by status and date and ordered by number when read whole. */
  historyReferenceRow: [...HISTORY_ROW, 'seqAll', 'createdAt'],
  /** An integration event (lib/events/event.ts eventOf). */
  event: ['id', 'type', 'created_at', 'business_id', 'mode', 'data'],
  /** The buyer's inbox entry (lib/lifecycle/inbox.ts inboxEntryOf). */
  inboxEntry: [
    'irn',
    'supplierTin',
    'supplierName',
    'issueDate',
    'currency',
    'amounts',
    'transmittedAt',
    'receivedAt',
    'paymentStatus',
    'paymentReference',
  ],
  /** A webhook delivery as its listing shows it and its attempt is queued again (not its body). */
  delivery: [
    'subscriptionId',
    'businessId',
    'eventId',
    'eventType',
    'status',
    'attempts',
    'lastStatus',
    'lastError',
    'lastAttemptAt',
    'nextAttemptAt',
    'createdAt',
    'deliveredAt',
    'log',
  ],
  /** A PENDING delivery found overdue: enough to queue its attempt again. */
  deliveryDue: ['subscriptionId', 'businessId', 'eventId', 'status', 'nextAttemptAt', 'attempts'],
  /** The newest party of a TIN, for the transmit lookup: its name. */
  partyName: ['party_name'],
  /** Whether a business has a system in a mode: its API clients' webhook URLs (not their secrets). */
  apiClientSystem: ['apiKey', 'active', 'mode', 'webhookUrl'],
} as const satisfies Record<string, readonly string[]>
/**
 * The indexes the service reads: three generic ones, keyed `gsiNpk`/`gsiNsk` (what goes into them is
 * decided by the key builders in keys.ts), each projecting ALL.
 *
 * Why ALL (issue 43, measured with bench/cost.ts): what costs on an index is the size of each copy,
 * and the items on these indexes are the small listing items themselves (an invoice's list item, an
 * event, a history row, an inbox entry, a delivery), whose listings show nearly all of them. The
 * invoice record and IRN registration, 2-9 KB, carry no index keys, so no index holds them. Projecting
 * only what each listing shows would need 47, 28 and 22 attributes, past DynamoDB's 20 an index; with
 * 20 the other listings would read each item again after the index. Measured both ways, INCLUDE saved
 * nothing on an invoice write (sign 12 index units either way) and 2 units on a delivery redelivered
 * or a key revoked, against a read of every listed item for the deliveries, inbox, history and keys.
 */
const INDEXES = [
  // Search by buyer, history by status, events, the buyer's inbox by receipt, deliveries by status,
  // parties by TIN, API clients by business.
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'ALL' } },
  // Search by type, history by time, events by type, deliveries by due time, parties by name, the
  // CLI's credentials.
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: { type: 'ALL' } },
  // Search by currency, history by reference, parties by TIN and name, the audit of a business.
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: { type: 'ALL' } },
] as const satisfies IndexDefinition[]

/** DynamoDB's limits on a table's indexes (its CreateTable and Projection references). */
export const INDEX_LIMITS = { indexes: 20, includedPerIndex: 20, includedPerTable: 100 } as const

/** What DynamoDB would refuse in these index declarations; empty when it takes them. */
export function projectionProblems(indexes: readonly IndexDefinition[]): string[] {
  const problems: string[] = []
  if (indexes.length > INDEX_LIMITS.indexes)
    problems.push(`${indexes.length} global secondary indexes: DynamoDB allows ${INDEX_LIMITS.indexes}`)
  let total = 0
  for (const index of indexes) {
    if (index.projection.type !== 'INCLUDE') continue
    const count = index.projection.attributes.length
    total += count
    if (count > INDEX_LIMITS.includedPerIndex)
      problems.push(
        `${index.indexName} projects ${count} attributes: DynamoDB allows ${INDEX_LIMITS.includedPerIndex} an index (project ALL, or read the items after the index)`,
      )
  }
  if (total > INDEX_LIMITS.includedPerTable)
    problems.push(
      `the indexes project ${total} attributes in all: DynamoDB allows ${INDEX_LIMITS.includedPerTable}`,
    )
  return problems
}

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalSecondaryIndexes: INDEXES,
  ttlAttribute: TTL_ATTRIBUTE,
  /**
   * The stream the asynchronous consumers read (lib/service/consumers.ts): new images only, enough for the
   * outbox items, events and batches they act on. Local tables have it too, read by the same consumers.
   */
  streamViewType: 'NEW_IMAGE',
} as const

export type IndexName = (typeof INDEXES)[number]['indexName']

/** An index's declaration by name. */
export function indexNamed(name: IndexName): (typeof INDEXES)[number] {
  return INDEXES.find((i) => i.indexName === name)!
}

/** Whether every one of `attributes` is in the index's items (keys are always). */
export function projects(name: IndexName, attributes: readonly string[]): boolean {
  const index = indexNamed(name)
  const projection = index.projection as Projection
  if (projection.type === 'ALL') return true
  const have = new Set<string>([
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    index.partitionKey,
    index.sortKey,
    ...projection.attributes,
  ])
  return attributes.every((a) => have.has(a))
}

/** CreateTable's (and UpdateTable's Create) form of an index. */
export function indexInput(index: IndexDefinition) {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection:
      index.projection.type === 'ALL'
        ? { ProjectionType: 'ALL' as const }
        : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection.attributes] },
  }
}

/** The CreateTable input for DynamoDB Local (on-demand, the indexes of `tableDefinition`). */
export function createTableInput(tableName: string) {
  const indexes: readonly IndexDefinition[] = tableDefinition.globalSecondaryIndexes
  const keyAttributes = [
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...new Set(indexes.flatMap((i) => [i.partitionKey, i.sortKey])),
  ]
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: indexes.map(indexInput),
  }
}
