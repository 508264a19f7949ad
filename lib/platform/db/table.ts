/**
 * The single table's shape, shared by the CDK DataStack and by local table creation so the two
 * cannot drift apart.
 */
export const TTL_ATTRIBUTE = 'expiresAt'

/**
 * What an index holds besides its keys (the table's and its own, which every index carries).
 * INCLUDE names attributes; DynamoDB allows 100 of them across all the table's indexes, an attribute
 * projected into two indexes counting twice (test/unit/platform/table-indexes.test.ts holds it).
 */
export type Projection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] }

export interface IndexDefinition {
  indexName: string
  partitionKey: string
  sortKey: string
  projection: Projection
}

/**
 * What each listing read from an index shows, by the items it lists: the attributes its reader reads,
 * and so what the indexes project. A listing not here reads the items themselves after the index
 * (lib/platform/db/index-reads.ts), because what it shows would not fit in the 100 attributes or it
 * runs too rarely to pay for a copy on every write: a party's fields, an API key's secrets and roles,
 * the CLI's credentials, the outbox, batches and audit events of a business.
 */
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

const include = (...listings: (readonly string[])[]): Projection => ({
  type: 'INCLUDE',
  attributes: [...new Set(listings.flat())].sort(),
})

/**
 * The indexes the service reads. Three generic ones, keyed `gsiNpk`/`gsiNsk` (what goes into them
 * is decided by the key builders in keys.ts), each projecting what its listings show. They replace
 * `gsi1`..`gsi3`, which projected ALL on the same keys (`REPLACED_INDEXES`): docs/operations.md,
 * "Replacing an index", is how a table that holds data moves from those to these.
 */
const INDEXES = [
  {
    indexName: 'gsi1k',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
    // Search by buyer, history by status, events, the buyer's inbox by receipt, deliveries by
    // status, parties by TIN, API clients by business (batches and outbox items read after it).
    projection: include(
      LISTED.invoiceSummary,
      LISTED.historyRow,
      LISTED.event,
      LISTED.inboxEntry,
      LISTED.delivery,
      LISTED.partyName,
      LISTED.apiClientSystem,
    ),
  },
  {
    indexName: 'gsi2k',
    partitionKey: 'gsi2pk',
    sortKey: 'gsi2sk',
    // Search by type, history by time, events by type, deliveries by due time, parties by name
    // and the CLI's credentials (read after it).
    projection: include(LISTED.invoiceSummary, LISTED.historyBound, LISTED.event, LISTED.deliveryDue),
  },
  {
    indexName: 'gsi3k',
    partitionKey: 'gsi3pk',
    sortKey: 'gsi3sk',
    // Search by currency, history by reference, parties by TIN and name, the audit of a business
    // (read after it).
    projection: include(LISTED.invoiceSummary, LISTED.historyReferenceRow),
  },
] as const satisfies IndexDefinition[]

/**
 * The indexes `INDEXES` replace, as every table had them before issue 43: same keys, ALL projected.
 * A stage's table keeps them while it upgrades (docs/operations.md), and the migration test creates
 * a table with them; nothing in the service reads them any more.
 */
export const REPLACED_INDEXES = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'ALL' } },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: { type: 'ALL' } },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: { type: 'ALL' } },
] as const satisfies IndexDefinition[]

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

/**
 * The indexes a table is to have: the service's, or (a stage's upgrade, docs/operations.md, the CDK
 * context `tableIndexes`) those named, each of the service's or of those they replace.
 */
export function indexesFor(names?: readonly string[]): IndexDefinition[] {
  if (!names) return [...INDEXES]
  const known: IndexDefinition[] = [...INDEXES, ...REPLACED_INDEXES]
  return names.map((name) => {
    const index = known.find((i) => i.indexName === name)
    if (!index)
      throw new Error(
        `No index ${name}: name the service's (${INDEXES.map((i) => i.indexName).join(', ')}) or those they replace`,
      )
    return index
  })
}

/** An index's declaration by name. */
export function indexNamed(name: IndexName): (typeof INDEXES)[number] {
  return INDEXES.find((i) => i.indexName === name)!
}

/** Whether every one of `attributes` is in the index's items (keys are always). */
export function projects(name: IndexName, attributes: readonly string[]): boolean {
  const index = indexNamed(name)
  const have = new Set<string>([
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    index.partitionKey,
    index.sortKey,
    ...(index.projection.type === 'INCLUDE' ? index.projection.attributes : []),
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

/**
 * The CreateTable input for DynamoDB Local (on-demand, the indexes of `tableDefinition`). `indexes`
 * is for the migration test, which creates a table as it was before.
 */
export function createTableInput(
  tableName: string,
  indexes: readonly IndexDefinition[] = tableDefinition.globalSecondaryIndexes,
) {
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
