/**
 * Every key string in the table is composed here and nowhere else, so the access patterns of the
 * whole service can be read in one file. Each builder returns the full key (pk/sk, and GSI keys where
 * the item is indexed).
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
  /** A (key, signature) pair already accepted: refused again while its timestamp is in the window. */
  replay: (apiKey: string, signatureHash: string): Key => ({ pk: `${REPLAY_PREFIX}${apiKey}`, sk: `SIG#${signatureHash}` }),

  /** An Area B switch client: its HMAC secrets. */
  switchClient: (clientId: string): Key => ({ pk: `SWITCH#${clientId}`, sk: 'CLIENT' }),
  /** A nonce an Area B client has spent. */
  nonce: (clientId: string, nonce: string): Key => ({ pk: `${NONCE_PREFIX}${clientId}`, sk: `NONCE#${nonce}` }),

  /** Any bearer token (switch, merchant, notification admin), by the SHA-256 of its value. */
  bearer: (tokenHash: string): Key => ({ pk: `BEARER#${tokenHash}`, sk: 'TOKEN' }),
  /** Lists every credential of one kind for the CLI (`credentials list`). */
  credentialListing: (kind: string, id: string) => ({ gsi2pk: `CREDENTIALS#${kind}`, gsi2sk: id }),

  /**
   * One invoice record per IRN (CONTRACT section 5). The IRN carries the issuing business's service
   * id, so it names one business; the record keeps businessId for ownership checks. Indexed by
   * business (gsi1) and by buyer TIN (gsi2) for listings and buyer pulls.
   */
  invoice: (irn: string): Key => ({ pk: `IRN#${irn}`, sk: 'INVOICE' }),
  invoiceByBusiness: (businessId: string, createdAt: string, irn: string) => ({
    gsi1pk: `BUSINESS#${businessId}#INVOICES`,
    gsi1sk: `${createdAt}#${irn}`,
  }),
  invoiceByBuyer: (buyerTin: string, createdAt: string, irn: string) => ({
    gsi2pk: `BUYER#${buyerTin}#INVOICES`,
    gsi2sk: `${createdAt}#${irn}`,
  }),

  /** The atomic per-business, per-code counter behind generate-invoice-number (UpdateItem ADD). */
  invoiceNumberCounter: (businessId: string, code: string): Key => ({
    pk: `BUSINESS#${businessId}`,
    sk: `COUNTER#INVOICE_NUMBER#${code}`,
  }),

  /** One taxpayer in the local taxpayer registry (verify-tin), by TIN. */
  taxpayer: (tin: string): Key => ({ pk: `TAXPAYER#${tin}`, sk: 'REGISTRY' }),

  /** A POST/PATCH sent with an Idempotency-Key: its first reply, per caller and route. */
  idempotency: (callerId: string, routeKey: string, key: string): Key => ({
    pk: `IDEMPOTENCY#${callerId}`,
    sk: `${routeKey}#${key}`,
  }),

  /** The health check's round trip reads this key (it need not exist). */
  healthProbe: (): Key => ({ pk: 'HEALTH', sk: 'PROBE' }),
} as const
