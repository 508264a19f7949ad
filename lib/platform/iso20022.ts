/**
 * Area B's responseCode as ISO 20022 (CONTRACT 24): since the CBN's move of domestic payment messages
 * to ISO 20022, a switch reads a status report (pacs.002) as a transaction status
 * (ExternalPaymentTransactionStatus1Code) and a reason (ExternalStatusReason1Code). Every reply of
 * Area B carries both beside its responseCode, from this one table; docs/payments.md shows it, and
 * test/unit/platform/iso20022.test.ts holds every reason to the official code set kept in
 * data/standards/iso20022/.
 *
 * A transfer or reversal is final when answered (no reply says pending), so the status is ACSC
 * (settled) for 00 and RJCT (rejected) for everything else. 00 carries `reason: null`: a settled
 * transaction has no status reason in pacs.002, and a null keeps the member's shape the same on
 * every reply.
 */
export type Iso20022Status = 'ACSC' | 'RJCT'
export interface Iso20022 {
  status: Iso20022Status
  reason: string | null
}

export interface Iso20022Row extends Iso20022 {
  responseCode: string
  /** Set for the rows that refine a code's usual reason for one case (a second or late reversal). */
  case?: Iso20022Case
  /** When the service sends it, in a few words (docs/payments.md's table). */
  when: string
}

/** The cases whose reason differs from their code's usual one. */
export type Iso20022Case = 'already-reversed' | 'too-late'

const settled = (responseCode: string, when: string): Iso20022Row => ({
  responseCode,
  status: 'ACSC',
  reason: null,
  when,
})
const rejected = (responseCode: string, reason: string, when: string, kase?: Iso20022Case): Iso20022Row => ({
  responseCode,
  status: 'RJCT',
  reason,
  when,
  ...(kase ? { case: kase } : {}),
})

/** Every responseCode Area B sends (lib/platform/error-codes.ts RESPONSE_CODES), with its ISO pair. */
export const ISO20022_TABLE: readonly Iso20022Row[] = [
  settled('00', 'Approved: the transfer or reversal is done'),
  rejected('03', 'UCRD', 'No active merchant has this merchantId (the creditor is unknown)'),
  rejected('06', 'AC06', 'The account is dormant (name enquiry, transfer)'),
  rejected('12', 'FF12', 'A reversal of a declined transfer (also 405 on an Area B path)'),
  rejected('12', 'ARDT', 'A second reversal of the same transfer', 'already-reversed'),
  rejected('12', 'TM01', 'A reversal after the reversal window (30 days) of its transfer', 'too-late'),
  rejected('13', 'AM12', 'The amount is invalid'),
  rejected('14', 'AC02', 'No such (debtor) account'),
  rejected(
    '25',
    'AG09',
    'No such record: a status query for a requestId never received (final), a reversal of an unknown transfer, an unknown path',
  ),
  rejected('26', 'AM05', 'The requestId was already used for a different request'),
  rejected('30', 'FF01', 'Format error: a field or the body is not of its form'),
  rejected('51', 'AM04', 'Insufficient funds: a recorded decline'),
  rejected('63', 'AG08', 'Security violation: a missing or unknown bearer token'),
  rejected('65', 'DS0K', 'Over the client rate limit'),
  rejected('91', 'DS0B', 'Invalid signature (also the sandbox issuer-unavailable account, 503)'),
  rejected('92', 'DT02', 'Timestamp expired or malformed'),
  rejected('93', 'AM05', 'Duplicate nonce'),
  rejected('94', 'DS0B', 'Missing signature headers'),
  rejected('95', 'FF01', 'Malformed signature or nonce'),
  rejected(
    '96',
    'FF10',
    'System malfunction: a dependency is down or the account too busy; retry with the same requestId',
  ),
]

const byCode = new Map(ISO20022_TABLE.filter((row) => !row.case).map((row) => [row.responseCode, row]))

/**
 * The ISO 20022 pair of a responseCode (and case). A code missing from the table is a bug the unit
 * test catches; at run time it is sent as a rejection for a technical reason rather than failing the reply.
 */
export function iso20022Of(responseCode: string, kase?: Iso20022Case): Iso20022 {
  const row =
    (kase && ISO20022_TABLE.find((r) => r.responseCode === responseCode && r.case === kase)) ||
    byCode.get(responseCode)
  return row ? { status: row.status, reason: row.reason } : { status: 'RJCT', reason: 'FF10' }
}

/**
 * The table as markdown: the OpenAPI document's and docs/payments.md's (which
 * test/unit/platform/iso20022.test.ts holds to this).
 */
export const iso20022Table = () =>
  [
    '| responseCode | status | reason | when |',
    '|---|---|---|---|',
    ...ISO20022_TABLE.map((r) => `| ${r.responseCode} | ${r.status} | ${r.reason ?? 'null'} | ${r.when} |`),
  ].join('\n')
