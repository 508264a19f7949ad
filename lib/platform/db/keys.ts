import { currentMode, scoped, TEST_MARK } from '#lib/platform/mode.ts'

/**
 * Every key string in the table is composed here and nowhere else, so the access patterns of the
 * whole service can be read in one file. Each builder returns the full key (pk/sk, and GSI keys where
 * the item is indexed).
 *
 * Tenant data has a mode (CONTRACT section 15, lib/platform/mode.ts): its builders put the first identifier
 * through `scoped`, which marks it `T~` in test mode, so one IRN, request id or account number names
 * two different items in the two modes and no read or write can cross between them. Record prefixes
 * stay first, so the IAM grants by prefix and the stream filters cover both modes unchanged.
 * Credentials, businesses, reference data and the per-credential guards (replay, nonce, rate) have
 * no mode: the credential itself carries it.
 */
export interface Key {
  pk: string
  sk: string
}

/**
 * Partition-key prefixes of the short-lived items authentication writes on every request: the
 * infrastructure lets read-only functions write these and nothing else.
 */
export const REPLAY_PREFIX = 'REPLAY#'
export const NONCE_PREFIX = 'NONCE#'
/** Per-client rate limit windows (lib/platform/auth/rate-limit.ts): every authenticated request counts in one. */
export const RATE_PREFIX = 'RATE#'
/** Outcome notifications waiting to be sent: the stream sender takes items under this prefix. */
export const OUTBOX_PREFIX = 'OUTBOX#'
/** Integration events (webhooks): the stream fan-out takes newly inserted items under this prefix. */
export const EVENT_PREFIX = 'EVENT#'
/** Batch submissions: the stream starts a batch's worker when its header item is inserted. */
export const BATCH_PREFIX = 'BATCH#'
/** Area B request records (transfers, reversals): the history indexer takes stream records under this prefix. */
export const BANK_REQUEST_PREFIX = 'BANKREQ#'
/** A test clock (lib/platform/test-clock.ts): only test mode reads or moves one. */
export const TEST_CLOCK_PREFIX = 'TESTCLOCK#'
/** Supplier search: the per-business number counters, and the list items (lib/invoice/search.ts). */
export const SEARCH_COUNTER_PREFIX = 'INVSEQ#'
export const SEARCH_LIST_PREFIX = 'INVLIST#'
/** Parties (lib/parties): a party by id, a postal address by id, the list counters and the list items. */
export const PARTY_PREFIX = 'PARTY#'
export const POSTAL_ADDRESS_PREFIX = 'PADDR#'
export const PARTY_COUNTER_PREFIX = 'PARTYSEQ#'
export const PARTY_LIST_PREFIX = 'PARTYLIST#'
/** B2C devices (lib/receipts/devices.ts) and their receipts (lib/receipts/records.ts). */
export const DEVICE_PREFIX = 'DEVICE#'
const DEVICE_SK = 'DEV#'
export const RECEIPT_PREFIX = 'RCPT#'
/**
 * A device by its id alone, for the public verification page (lib/receipts/verify-page-lookup.ts),
 * which has no credential and so no mode: like an API key's item, it has no mode in its key and
 * carries the device's mode instead (a device's key is a credential of its business).
 */
export const DEVICE_BY_ID_PREFIX = 'DEVICEID#'
/**
 * The devices the scheduled chain watch reads (lib/receipts/events-chain-watch.ts), in a few stripes:
 * one item per device that has reported, with its mode (the watch runs for both modes at once).
 */
export const RECEIPT_WATCH_PREFIX = 'RWATCH#'
/** The buyer's inbox (lib/lifecycle/inbox.ts): one item per invoice transmitted to a business. */
export const INBOX_PREFIX = 'INBOX#'

export const keys = {
  /** Reference lists: one META item and the list's JSON in ordered chunks (items stay under 400 KB). */
  referenceMeta: (list: string): Key => ({ pk: `REF#${list}`, sk: 'META' }),
  /** Chunks are keyed by the load's revision, so a reload never mixes old and new rows. */
  referenceChunk: (list: string, revision: string, index: number): Key => ({
    pk: `REF#${list}`,
    sk: `CHUNK#${revision}#${String(index).padStart(4, '0')}`,
  }),
  referenceChunkPrefix: (revision: string) => `CHUNK#${revision}#`,

  /** A registered business, and the guards that keep its TIN and service id unique. */
  business: (businessId: string): Key => ({ pk: `BUSINESS#${businessId}`, sk: 'PROFILE' }),
  businessByTin: (tin: string): Key => ({ pk: `TIN#${tin}`, sk: 'BUSINESS' }),
  businessByServiceId: (serviceId: string): Key => ({ pk: `SERVICEID#${serviceId}`, sk: 'BUSINESS' }),

  /** An Area A client (API key); listed per business through gsi1. */
  apiClient: (apiKey: string): Key => ({ pk: `APIKEY#${apiKey}`, sk: 'CLIENT' }),
  apiClientByBusiness: (businessId: string, apiKey: string) => ({
    gsi1pk: `BUSINESS#${businessId}#CLIENTS`,
    gsi1sk: `APIKEY#${apiKey}`,
  }),
  /**
   * How many active API keys a business has in one mode (lib/platform/auth/key-count.ts): a conditional
   * ADD in each issue's transaction. Under the API keys' prefix, so the functions that issue and
   * revoke keys need no other grant; its sort key is never an API client's (`CLIENT`), so it is never
   * read as a key.
   */
  apiKeyCount: (businessId: string, mode: string): Key => ({
    pk: `APIKEY#~${businessId}`,
    sk: `ACTIVE#${mode}`,
  }),
  /** A (key, signature) pair already accepted: refused again while its timestamp is in the window. */
  replay: (apiKey: string, signatureHash: string): Key => ({
    pk: `${REPLAY_PREFIX}${apiKey}`,
    sk: `SIG#${signatureHash}`,
  }),

  /** An Area B switch client: its HMAC secrets. */
  switchClient: (clientId: string): Key => ({ pk: `SWITCH#${clientId}`, sk: 'CLIENT' }),
  /** A nonce an Area B client has spent. */
  nonce: (clientId: string, nonce: string): Key => ({
    pk: `${NONCE_PREFIX}${clientId}`,
    sk: `NONCE#${nonce}`,
  }),

  /**
   * One client's request count in one rate-limit window. The window's length is in the sort key, so a
   * limit changed mid-window starts a new count rather than reading the old one against it.
   */
  rateWindow: (subject: string, windowSeconds: number, windowStart: number): Key => ({
    pk: `${RATE_PREFIX}${subject}`,
    sk: `W#${windowSeconds}#${windowStart}`,
  }),

  /** Any bearer token (switch, merchant, notification admin), by the SHA-256 of its value. */
  bearer: (tokenHash: string): Key => ({ pk: `BEARER#${tokenHash}`, sk: 'TOKEN' }),
  /** Lists every credential of one kind for the CLI (`credentials list`). */
  credentialListing: (kind: string, id: string) => ({ gsi2pk: `CREDENTIALS#${kind}`, gsi2sk: id }),

  /**
   * One invoice record per IRN (CONTRACT section 5). The IRN carries the issuing business's service
   * id, so it names one business; the record keeps businessId for ownership checks. It is on no
   * index: a business's invoices are listed by supplier search's list items (searchList), a buyer's
   * by its inbox. Records written before issue 43 carry gsi1 and gsi2 keys no query reads, dropped
   * when a validate or sign next rewrites the record (docs/operations.md, "Upgrading a table that holds data").
   */
  invoice: (irn: string): Key => ({ pk: `IRN#${scoped(irn)}`, sk: 'INVOICE' }),

  /**
   * The buyer's inbox (CONTRACT 17, transmit/pull; lib/lifecycle/inbox.ts): one item per invoice
   * transmitted to a registered business, written in the transmit transaction, sorted by
   * `<transmitted_at>#<irn>`. The table partition holds all of a business's (the unfiltered pull);
   * gsi1 holds the same items in two partitions, unconfirmed and confirmed, which the confirm receipt
   * transaction moves the item between, so a `confirmed=` pull is one key range too.
   */
  inboxItem: (buyerBusinessId: string, sortKey: string): Key => ({
    pk: `${INBOX_PREFIX}${scoped(buyerBusinessId)}`,
    sk: sortKey,
  }),
  inboxPartition: (buyerBusinessId: string) => `${INBOX_PREFIX}${scoped(buyerBusinessId)}`,
  inboxByReceipt: (buyerBusinessId: string, confirmed: boolean, sortKey: string) => ({
    gsi1pk: `${INBOX_PREFIX}${scoped(buyerBusinessId)}#${confirmed ? 'CONFIRMED' : 'UNCONFIRMED'}`,
    gsi1sk: sortKey,
  }),
  inboxReceiptPartition: (buyerBusinessId: string, confirmed: boolean) =>
    `${INBOX_PREFIX}${scoped(buyerBusinessId)}#${confirmed ? 'CONFIRMED' : 'UNCONFIRMED'}`,
  /** An inbox item's sort key: newest first is descending order. */
  inboxSortKey: (transmittedAt: string, irn: string) => `${transmittedAt}#${irn}`,

  /**
   * A credit or debit note signed against an invoice (CONTRACT 16): one item per note under the
   * original's own partition, written in the note's sign transaction with the original's totals.
   */
  invoiceNote: (originalIrn: string, noteIrn: string): Key => ({
    pk: `IRN#${scoped(originalIrn)}`,
    sk: `NOTE#${noteIrn}`,
  }),
  invoiceNotePrefix: () => 'NOTE#',

  /**
   * Supplier search (lib/invoice/search.ts, docs/capacity.md). Each signed invoice of a business takes
   * the next number of its business's ALL space and of its buyer's, type's and currency's spaces, from
   * atomic counters (one item each, so no key takes more than one ADD per sign), and one list item
   * holds its summary at those numbers: the ALL list in the table, the three filters' lists on
   * gsi1/gsi2/gsi3. Numbers are dense, so page N of any space is a key range and the counter its total.
   */
  searchCounter: (businessId: string, space: string): Key => ({
    pk: `${SEARCH_COUNTER_PREFIX}${scoped(businessId)}#${space}`,
    sk: 'HEAD',
  }),
  searchList: (businessId: string, seq: number): Key => ({
    pk: `${SEARCH_LIST_PREFIX}${scoped(businessId)}`,
    sk: seqKey(seq),
  }),
  searchListPartition: (businessId: string) => `${SEARCH_LIST_PREFIX}${scoped(businessId)}`,
  /** A number as the list's sort keys hold it (fixed width, so string order is number order). */
  searchSeq: (seq: number) => seqKey(seq),
  /**
   * The void item an operator puts at a filter space's number no sign filled (lib/invoice/search-gaps.ts):
   * indexed in that space only (an ALL-space gap is voided at its list key).
   */
  searchGap: (businessId: string, space: string, seq: number): Key => ({
    pk: `${SEARCH_LIST_PREFIX}${scoped(businessId)}#GAPS`,
    sk: `${space}#${seqKey(seq)}`,
  }),
  /** A filter space's list partition (on its GSI): `<business>#BUYER#<tin>`, `#TYPE#<code>`, `#CUR#<ccy>`. */
  searchSpacePartition: (businessId: string, space: string) =>
    `${SEARCH_LIST_PREFIX}${scoped(businessId)}#${space}`,

  // ---- Parties of a business (lib/parties; CONTRACT 17) ----
  /**
   * A party a business keeps for its invoices, by its id: read whole when an invoice names it by `id`
   * (one GetItem), and holding its postal address's values beside the address's id.
   */
  party: (partyId: string): Key => ({ pk: `${PARTY_PREFIX}${scoped(partyId)}`, sk: 'PARTY' }),
  /** A postal address a party or an invoice party may name by `postal_address_id`. */
  postalAddress: (addressId: string): Key => ({
    pk: `${POSTAL_ADDRESS_PREFIX}${scoped(addressId)}`,
    sk: 'ADDRESS',
  }),
  /**
   * A business's parties are numbered densely in spaces (as supplier search numbers invoices): ALL,
   * `TIN#<tin>`, `NAME#<name>` and `TINNAME#<tin>#<name>`; one counter item per space, which is also its total.
   */
  partyCounter: (businessId: string, space: string): Key => ({
    pk: `${PARTY_COUNTER_PREFIX}${scoped(businessId)}#${space}`,
    sk: 'HEAD',
  }),
  /** The ALL list in the table; the filter spaces' lists on gsi1/gsi2/gsi3 under partyListPartition. */
  partyList: (businessId: string, seq: number): Key => ({
    pk: `${PARTY_LIST_PREFIX}${scoped(businessId)}`,
    sk: seqKey(seq),
  }),
  partyListPartition: (businessId: string, space?: string) =>
    `${PARTY_LIST_PREFIX}${scoped(businessId)}${space ? `#${space}` : ''}`,

  /** The atomic per-business, per-code counter behind generate-invoice-number (UpdateItem ADD). */
  invoiceNumberCounter: (businessId: string, code: string): Key => ({
    pk: `BUSINESS#${scoped(businessId)}`,
    sk: `COUNTER#INVOICE_NUMBER#${code}`,
  }),

  /** One taxpayer in the local taxpayer registry (verify-tin), by TIN. */
  taxpayer: (tin: string): Key => ({ pk: `TAXPAYER#${tin}`, sk: 'REGISTRY' }),

  /**
   * The test clock of one owner (lib/platform/test-clock.ts): `BUSINESS#<id>` for an Area A business,
   * `BANK` for the sandbox's bank (Areas B and C). Only test-mode work reads it, so the key has no
   * mode of its own: live time is the real time and has no item.
   */
  testClock: (owner: string): Key => ({ pk: `${TEST_CLOCK_PREFIX}${owner}`, sk: 'CLOCK' }),

  /** A POST/PATCH sent with an Idempotency-Key: its first reply, per caller and route. */
  idempotency: (callerId: string, routeKey: string, key: string): Key => ({
    pk: `IDEMPOTENCY#${callerId}`,
    sk: `${routeKey}#${key}`,
  }),

  /**
   * Every public key that signs invoices (the JWKS), one item per key id, in one partition per mode
   * so GET /resource/public-keys is a single Query: live keys under `SIGNING_KEYS` (as before the
   * sandbox), test keys under `SIGNING_KEYS#T~`. Keys are added, never removed: old signatures stay
   * verifiable after a rotation.
   */
  signingKeys: () => (currentMode() === 'test' ? `SIGNING_KEYS#${TEST_MARK}` : 'SIGNING_KEYS'),
  signingKey: (kid: string): Key => ({ pk: keys.signingKeys(), sk: `KID#${kid}` }),

  /** The health check's round trip reads this key (it need not exist). */
  healthProbe: (): Key => ({ pk: 'HEALTH', sk: 'PROBE' }),

  // ---- Area B ledger (lib/ledger) ----
  /** A bank account and its balance in integer kobo. */
  account: (accountNumber: string): Key => ({ pk: `ACCOUNT#${scoped(accountNumber)}`, sk: 'ACCOUNT' }),
  /** A merchant that transfers may pay (Area C's merchants). */
  merchant: (merchantId: string): Key => ({ pk: `MERCHANT#${merchantId}`, sk: 'PROFILE' }),
  /**
   * One Area B request (transfer or reversal) per switch client and requestId: the transaction record
   * and, written with attribute_not_exists, its idempotency record. Client ids never contain `#`.
   */
  bankRequest: (switchClientId: string, requestId: string): Key => ({
    pk: `${BANK_REQUEST_PREFIX}${scoped(switchClientId)}#${requestId}`,
    sk: 'REQUEST',
  }),
  /**
   * One NIP session id per switch client (CONTRACT 24): written with attribute_not_exists in the
   * transaction of the transfer or reversal that carries it, with a copy of its first reply, so the
   * id is unique across request ids and a status query by it is one GetItem. Its own prefix: the
   * history indexer's stream filter takes BANKREQ# items.
   */
  bankSession: (switchClientId: string, sessionId: string): Key => ({
    pk: `BANKSESSION#${scoped(switchClientId)}#${sessionId}`,
    sk: 'SESSION',
  }),
  /** A providerReference (`TNX...`): unique across the bank, points to its merchant history item. */
  providerReference: (reference: string): Key => ({ pk: `PROVREF#${scoped(reference)}`, sk: 'TRANSACTION' }),

  // ---- Area C merchant history (lib/merchant-history; design in docs/history-and-finance.md) ----
  /** Per merchant: dense sequence counters per partition, which are also the totals. */
  historyHead: (merchantId: string): Key => ({ pk: `MHIST#${scoped(merchantId)}`, sk: 'HEAD' }),
  /**
   * The ALL list: one item per transaction, sorted by the merchant-wide sequence number, in one of
   * the merchant's stripes (`historyStripe` in lib/merchant-history/items.ts). Stripe 0 is the
   * unstriped key every item had before striping, so items written then are where they were.
   */
  historyItem: (merchantId: string, seqAll: number, stripe: number): Key => ({
    pk: striped(`MHIST#${scoped(merchantId)}`, stripe),
    sk: `TXN#${seqKey(seqAll)}`,
  }),
  historyListPartition: (merchantId: string, stripe: number) =>
    striped(`MHIST#${scoped(merchantId)}`, stripe),
  historySeqKey: (seq: number) => `TXN#${seqKey(seq)}`,
  /** The reversed sequence numbers (in the successful space) of one block of 16,384. */
  historyReversalBlock: (merchantId: string, block: number): Key => ({
    pk: `MHIST#${scoped(merchantId)}`,
    sk: `REVBLOCK#${String(block).padStart(6, '0')}`,
  }),
  /** Status partitions: SUCCESSFUL and REVERSED share the successful-space number, FAILED has its own. */
  historyByStatus: (merchantId: string, status: string, seq: number, stripe: number) => ({
    gsi1pk: striped(historyStatusPartition(merchantId, status), stripe),
    gsi1sk: seqKey(seq),
  }),
  historyStatusPartition: (merchantId: string, status: string, stripe: number) =>
    striped(historyStatusPartition(merchantId, status), stripe),
  /** The time index: createdAt (Lagos local) then the sequence number, which sort the same way. */
  historyByTime: (merchantId: string, createdAtLocal: string, seqAll: number, stripe: number) => ({
    gsi2pk: striped(`MHIST#${scoped(merchantId)}#TIME`, stripe),
    gsi2sk: `${createdAtLocal}#${seqKey(seqAll)}`,
  }),
  historyTimePartition: (merchantId: string, stripe: number) =>
    striped(`MHIST#${scoped(merchantId)}#TIME`, stripe),
  /**
   * The merchant's own reference (gsi3): its transactions numbered 1, 2, 3... in the reference by the
   * reference's counter (`historyReferenceHead`), so page N is a key range. Items recorded before the
   * numbering have `<seqAll>` and, once scripts/ops/rank-history-references.ts has run, `L#<n>`,
   * which sort before every `R#<rank>`, as they are older.
   */
  historyByReference: (merchantId: string, merchantReference: string, rank: number) => ({
    gsi3pk: `MHIST#${scoped(merchantId)}#REF#${merchantReference}`,
    gsi3sk: `R#${seqKey(rank)}`,
  }),
  historyReferenceRankKey: (rank: number) => `R#${seqKey(rank)}`,
  historyReferenceLegacyKey: (n: number) => `L#${seqKey(n)}`,
  historyReferencePartition: (merchantId: string, merchantReference: string) =>
    `MHIST#${scoped(merchantId)}#REF#${merchantReference}`,
  /**
   * A reference's counters: `all` (ranked items) and, after the backfill, `legacy` (L# items). Each
   * in its own partition key: the indexer writes one per new transfer, which the merchant's own
   * partition (head, day totals) could not take at a hot merchant's rate.
   */
  historyReferenceHead: (merchantId: string, merchantReference: string): Key => ({
    pk: `MHIST#${scoped(merchantId)}#REF#${merchantReference}`,
    sk: 'HEAD',
  }),
  seqKey: (seq: number) => seqKey(seq),
  /**
   * One merchant's totals for one Lagos calendar day (the day of each transaction's createdAt), kept
   * with ADD by the write that records the transaction in the history (lib/merchant-history/indexer.ts):
   * a statement is this one item.
   */
  historyDay: (merchantId: string, date: string): Key => ({
    pk: `MHIST#${scoped(merchantId)}`,
    sk: `DAY#${date}`,
  }),
  /**
   * The merchant's statement (lib/finance/statement-range.ts): one entry per money movement (a
   * successful transfer in, a reversal out), appended by the history indexer with the running
   * balance, never rewritten. Sorted by booking time (Lagos local, which the indexer keeps
   * non-decreasing along the entry numbers) then number, so a period is one key range.
   */
  statementEntry: (merchantId: string, bookedAtLocal: string, seq: number): Key => ({
    pk: `MHIST#${scoped(merchantId)}#STMT`,
    sk: `E#${bookedAtLocal}#${seqKey(seq)}`,
  }),
  statementPartition: (merchantId: string) => `MHIST#${scoped(merchantId)}#STMT`,
  /** The sort-key bound of a booking time: every entry booked before `atLocal` sorts below it. */
  statementBound: (atLocal: string) => `E#${atLocal}`,

  // ---- Area D notifications (lib/notifications) ----
  /** One template per (productCode, messageType): the pair is the key, so it is unique by construction. */
  notificationTemplate: (productCode: string, messageType: number): Key => ({
    pk: `NTEMPLATE#${productCode}`,
    sk: `TYPE#${messageType}`,
  }),
  notificationTemplatePartition: (productCode: string) => `NTEMPLATE#${productCode}`,
  /** templateID -> its (productCode, messageType), written in the same transaction as the template. */
  notificationTemplateId: (templateId: number): Key => ({ pk: `NTEMPLATEID#${templateId}`, sk: 'TEMPLATE' }),
  /** The atomic counter templateIDs are allocated from. */
  notificationTemplateCounter: (): Key => ({ pk: 'COUNTER#NTEMPLATEID', sk: 'COUNTER' }),
  /** The admin notification e-mail list: one item per address, keyed by its lower-cased form. */
  notificationEmail: (emailLower: string): Key => ({ pk: 'NEMAIL', sk: `EMAIL#${emailLower}` }),
  notificationEmailPartition: () => 'NEMAIL',
  /** The rendered outcome notification of one transaction (its providerReference), sent by outbox-sender. */
  outbox: (providerReference: string): Key => ({
    pk: `${OUTBOX_PREFIX}${scoped(providerReference)}`,
    sk: 'NOTIFICATION',
  }),
  outboxByMerchant: (merchantId: string, createdAtLocal: string, providerReference: string) => ({
    gsi1pk: `OUTBOX#MERCHANT#${scoped(merchantId)}`,
    gsi1sk: `${createdAtLocal}#${providerReference}`,
  }),
  outboxMerchantPartition: (merchantId: string) => `OUTBOX#MERCHANT#${scoped(merchantId)}`,

  // ---- Integration events and webhooks (lib/events, lib/webhooks; CONTRACT section 11) ----
  /**
   * One event (`evt_...`), written in the same transaction as the change it reports. Listed per
   * business on gsi1 in time order (operations, tests).
   */
  event: (eventId: string): Key => ({ pk: `${EVENT_PREFIX}${scoped(eventId)}`, sk: 'EVENT' }),
  eventByBusiness: (businessId: string, createdAt: string, eventId: string) => ({
    gsi1pk: `EVENTS#BUSINESS#${scoped(businessId)}`,
    gsi1sk: `${createdAt}#${eventId}`,
  }),
  eventBusinessPartition: (businessId: string) => `EVENTS#BUSINESS#${scoped(businessId)}`,
  /** The same listing per event type, on gsi2 (GET /api/v1/events?type=: no filtering, CONTRACT 21). */
  eventByType: (businessId: string, type: string, createdAt: string, eventId: string) => ({
    gsi2pk: `EVENTS#BUSINESS#${scoped(businessId)}#${type}`,
    gsi2sk: `${createdAt}#${eventId}`,
  }),
  eventTypePartition: (businessId: string, type: string) => `EVENTS#BUSINESS#${scoped(businessId)}#${type}`,
  /** A business's webhook subscriptions, in one partition (a handful per business). */
  webhookSubscription: (businessId: string, subscriptionId: string): Key => ({
    pk: `WEBHOOKS#${scoped(businessId)}`,
    sk: `SUB#${subscriptionId}`,
  }),
  /**
   * A deleted subscription's record, kept beside the live ones under another sort key prefix: what
   * reads the live ones (the fan-out, the test clock's due sweep, the list) never pages through it.
   */
  webhookDeletedSubscription: (businessId: string, subscriptionId: string): Key => ({
    pk: `WEBHOOKS#${scoped(businessId)}`,
    sk: `DELETED#${subscriptionId}`,
  }),
  webhookSubscriptionPartition: (businessId: string) => `WEBHOOKS#${scoped(businessId)}`,
  /** The subscriptions' own items in that partition start with this sort key (the rest are guards). */
  webhookSubscriptionSkPrefix: 'SUB#',
  /** A recovery task of a subscription (lib/webhooks/recovery.ts), beside the business's subscriptions. */
  webhookRecoveryTask: (businessId: string, subscriptionId: string, taskId: string): Key => ({
    pk: `WEBHOOKS#${scoped(businessId)}`,
    sk: `RECOVER#${subscriptionId}#${taskId}`,
  }),
  /** How many subscriptions the business has (a conditional ADD in each create's transaction). */
  webhookSubscriptionCount: (businessId: string): Key => ({
    pk: `WEBHOOKS#${scoped(businessId)}`,
    sk: 'COUNT',
  }),
  /**
   * One per (destination URL, event type) a subscription of the business takes: created with it,
   * attribute_not_exists, so a second subscription of the same URL to the same event is refused.
   */
  webhookDestinationGuard: (businessId: string, urlHash: string, eventType: string): Key => ({
    pk: `WEBHOOKS#${scoped(businessId)}`,
    sk: `DEST#${urlHash}#${eventType}`,
  }),
  /**
   * One of the concurrent-delivery slots of a destination host (lib/webhooks/host-slots.ts): at most
   * that many deliveries to one host are in flight, whichever businesses they are for. Each mode has
   * slots of its own (`WHHOST#T~<host>` in test): a sandbox burst holds no live slot (CONTRACT 18).
   */
  webhookHostSlot: (host: string, slot: number): Key => ({
    pk: `WHHOST#${scoped(host)}`,
    sk: `SLOT#${slot}`,
  }),
  /**
   * A place in a destination host's waiting line (lib/webhooks/host-slots.ts): work that found every
   * slot held, taken oldest first as slots free. Beside the host's slots (its own sk prefix).
   */
  webhookHostLine: (host: string, place: string): Key => ({
    pk: `WHHOST#${scoped(host)}`,
    sk: `WAIT#${place}`,
  }),
  /**
   * One event's delivery to one subscription: created once (attribute_not_exists) by the fan-out,
   * so an event reaches a subscription through one delivery however often the stream repeats it.
   * Listed per subscription and status on gsi1, newest first.
   */
  webhookDelivery: (subscriptionId: string, eventId: string): Key => ({
    pk: `WHDELIVERY#${scoped(subscriptionId)}`,
    sk: `EVENT#${eventId}`,
  }),
  webhookDeliveryByStatus: (subscriptionId: string, status: string, createdAt: string, eventId: string) => ({
    gsi1pk: `WHDELIVERY#${scoped(subscriptionId)}#${status}`,
    gsi1sk: `${createdAt}#${eventId}`,
  }),
  webhookDeliveryStatusPartition: (subscriptionId: string, status: string) =>
    `WHDELIVERY#${scoped(subscriptionId)}#${status}`,
  webhookDeliveryPartition: (subscriptionId: string) => `WHDELIVERY#${scoped(subscriptionId)}`,
  /**
   * A PENDING delivery by when its next attempt is due (gsi2, sparse: only PENDING deliveries carry
   * it), in one of a few stripes so that no one index partition takes every delivery's writes: the
   * overdue sweep (lib/webhooks/overdue-sweep.ts) reads each stripe's oldest.
   */
  webhookDeliveryDue: (stripe: number, nextAttemptAt: string, subscriptionId: string, eventId: string) => ({
    gsi2pk: `WHDELIVERY#${scoped('DUE')}#${stripe}`,
    gsi2sk: `${nextAttemptAt}#${subscriptionId}#${eventId}`,
  }),
  webhookDeliveryDuePartition: (stripe: number) => `WHDELIVERY#${scoped('DUE')}#${stripe}`,

  // ---- B2C receipts (lib/receipts; CONTRACT 23). The items are described in lib/receipts/records.ts ----
  /** A business's registered devices, their active count and their key guards: one small partition. */
  device: (businessId: string, deviceId: string): Key => ({
    pk: `${DEVICE_PREFIX}${scoped(businessId)}`,
    sk: `${DEVICE_SK}${deviceId}`,
  }),
  devicePartition: (businessId: string) => `${DEVICE_PREFIX}${scoped(businessId)}`,
  deviceSkPrefix: DEVICE_SK,
  /** How many active devices the business has in this mode (a conditional ADD in each registration). */
  deviceCount: (businessId: string): Key => ({ pk: `${DEVICE_PREFIX}${scoped(businessId)}`, sk: 'COUNT' }),
  /** One per public key registered (its RFC 7638 thumbprint): the same key twice is refused. */
  deviceKeyGuard: (businessId: string, thumbprint: string): Key => ({
    pk: `${DEVICE_PREFIX}${scoped(businessId)}`,
    sk: `JWK#${thumbprint}`,
  }),
  /**
   * One device's receipts, in a partition of the device's own (100 tills of a business write side by
   * side): the first receipt at each counter, the forks beside it, the prev_hash guards and the chain.
   */
  receipt: (deviceId: string, counter: number): Key => ({
    pk: `${RECEIPT_PREFIX}${scoped(deviceId)}`,
    sk: `N#${seqKey(counter)}`,
  }),
  /** Another receipt at a counter already held, or naming a prev_hash already named (a FORK). */
  receiptFork: (deviceId: string, counter: number, hash: string): Key => ({
    pk: `${RECEIPT_PREFIX}${scoped(deviceId)}`,
    sk: `N#${seqKey(counter)}#F#${hash}`,
  }),
  /** Which receipt of the device first named this prev_hash. */
  receiptPrevGuard: (deviceId: string, prevHash: string): Key => ({
    pk: `${RECEIPT_PREFIX}${scoped(deviceId)}`,
    sk: `P#${prevHash}`,
  }),
  /** A device on the chain watch's list (no mode in the key: the item carries it). */
  receiptWatch: (stripe: number, deviceId: string): Key => ({
    pk: `${RECEIPT_WATCH_PREFIX}${stripe}`,
    sk: deviceId,
  }),
  receiptWatchPartition: (stripe: number) => `${RECEIPT_WATCH_PREFIX}${stripe}`,
  /** A device by its id alone (no mode in the key: the item carries it). */
  deviceById: (deviceId: string): Key => ({ pk: `${DEVICE_BY_ID_PREFIX}${deviceId}`, sk: 'DEVICE' }),
  /** The device's chain: its received runs, forks and late count (lib/receipts/chain.ts). */
  receiptChain: (deviceId: string): Key => ({ pk: `${RECEIPT_PREFIX}${scoped(deviceId)}`, sk: 'CHAIN' }),
  receiptPartition: (deviceId: string) => `${RECEIPT_PREFIX}${scoped(deviceId)}`,

  /** A batch submission: its header (the commit point) and one item per invoice. */
  batch: (batchId: string): Key => ({ pk: `${BATCH_PREFIX}${scoped(batchId)}`, sk: 'BATCH' }),
  batchItem: (batchId: string, index: number): Key => ({
    pk: `${BATCH_PREFIX}${scoped(batchId)}`,
    sk: `ITEM#${String(index).padStart(3, '0')}`,
  }),
  batchPartition: (batchId: string) => `${BATCH_PREFIX}${scoped(batchId)}`,
  /** A business's batches, newest last, on gsi1 (CLI, tests). */
  batchByBusiness: (businessId: string, createdAt: string, batchId: string) => ({
    gsi1pk: `BATCHES#BUSINESS#${scoped(businessId)}`,
    gsi1sk: `${createdAt}#${batchId}`,
  }),
  batchBusinessPartition: (businessId: string) => `BATCHES#BUSINESS#${scoped(businessId)}`,

  // ---- Audit trail (lib/platform/audit): append-only, one item per event, never updated or deleted ----
  /**
   * One event about one subject (kind INVOICE, CREDENTIAL, TEMPLATE, NOTIFY): `eventId` is the ISO time
   * then a random suffix, so a subject's partition reads in time order and two events never collide.
   */
  auditEvent: (subjectKind: string, subjectId: string, eventId: string): Key => ({
    pk: auditSubjectPartition(subjectKind, subjectId),
    sk: eventId,
  }),
  auditSubjectPartition: (subjectKind: string, subjectId: string) =>
    auditSubjectPartition(subjectKind, subjectId),
  /** Every event that concerns one business (its invoices and credentials), in time order, on gsi3. */
  auditByBusiness: (businessId: string, eventId: string) => ({
    gsi3pk: `AUDIT#BUSINESS#${businessId}`,
    gsi3sk: eventId,
  }),
  auditBusinessPartition: (businessId: string) => `AUDIT#BUSINESS#${businessId}`,
} as const

/** Sequence numbers as fixed-width strings so that string order is number order (up to 10^12). */
function seqKey(seq: number): string {
  return String(seq).padStart(12, '0')
}

/** A merchant history partition key in stripe `stripe` (0: the key as it was before striping). */
const striped = (partition: string, stripe: number) => (stripe === 0 ? partition : `${partition}#S${stripe}`)

/** An invoice's audit lives in its mode, as the invoice does; credentials and templates have none. */
const auditSubjectPartition = (subjectKind: string, subjectId: string) =>
  `AUDIT#${subjectKind}#${subjectKind === 'INVOICE' ? scoped(subjectId) : subjectId}`

function historyStatusPartition(merchantId: string, status: string): string {
  return `MHIST#${scoped(merchantId)}#${status}`
}
