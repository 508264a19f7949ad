/**
 * Area B response codes (CONTRACT section 6), in the ISO 8583 style the switch speaks. The
 * signature codes 91-95 belong to lib/platform/auth/switch-signature.ts; these are the business outcomes.
 */
export const CODES = {
  approved: '00',
  /** The account is dormant: a name enquiry answers it rather than the name, and no transfer debits it. */
  dormantAccount: '06',
  /** The merchantId names no active merchant. */
  invalidMerchant: '03',
  /** A transaction that cannot be carried out as asked (reversal of a declined or reversed one). */
  invalidTransaction: '12',
  invalidAmount: '13',
  /** No such account. */
  unknownAccount: '14',
  /** Record not found: a reversal's original transfer, or (final) a status query's requestId never received. */
  originalNotFound: '25',
  /** The requestId was already used for a different request. */
  duplicateRecord: '26',
  formatError: '30',
  insufficientFunds: '51',
} as const

export const MESSAGES = {
  approved: 'Approved',
  insufficientFunds: 'Insufficient funds',
} as const
