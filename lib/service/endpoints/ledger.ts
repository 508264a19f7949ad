import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import {
  BalanceEnquiryRequest,
  bankBodyError,
  NameEnquiryRequest,
  ReversalRequest,
  StatusQueryRequest,
  TransferRequest,
} from '#lib/ledger/schemas.ts'
import { TEST_CLOCK_PREFIX } from '#lib/platform/db/keys.ts'
import { AREA_B_TIMEOUT_SECONDS } from '#lib/ledger/final-within.ts'
import { reads, writes } from './common.ts'

/** Area B: balance and name enquiry, debit transfer, reversal and status query (CONTRACT sections 6, 24). */

const ledger = /* @__PURE__ */ endpointsOf({
  domain: 'ledger',
  stack: 'payments',
  area: 'B',
  auth: 'switch-signature',
  reply: 'bank',
  // Every Area B request is final within 10 s of its receipt (lib/ledger/final-within.ts).
  timeoutSeconds: AREA_B_TIMEOUT_SECONDS,
})

/**
 * A transfer or reversal: the accounts, the bank request, its session id's record, the
 * provider-reference pointer and the outcome notification are written in one transaction; the merchant and its templates are read.
 */
const moneyMoves = {
  // TESTCLOCK#: the sandbox bank's test clock, read with the request's items in test mode only.
  table: [
    writes(['ACCOUNT#', 'BANKREQ#', 'BANKSESSION#', 'PROVREF#', 'OUTBOX#']),
    reads(['MERCHANT#', 'NTEMPLATE#', TEST_CLOCK_PREFIX]),
  ],
}

export const balanceEnquiry = /* @__PURE__ */ ledger({
  functionId: 'transactions-balance-enquiry',
  routes: [{ method: 'POST', path: '/api/v1/transactions/balance-enquiry' }],
  access: { table: [reads(['ACCOUNT#'])] },
  request: { body: BalanceEnquiryRequest, invalidBody: bankBodyError },
})
export const nameEnquiry = /* @__PURE__ */ ledger({
  functionId: 'transactions-name-enquiry',
  routes: [{ method: 'POST', path: '/api/v1/transactions/name-enquiry' }],
  access: { table: [reads(['ACCOUNT#'])] },
  request: { body: NameEnquiryRequest, invalidBody: bankBodyError },
})
export const transfer = /* @__PURE__ */ ledger({
  functionId: 'transactions-transfer',
  metric: 'transactions',
  routes: [{ method: 'POST', path: '/api/v1/transactions/transfer' }],
  access: moneyMoves,
  request: { body: TransferRequest, invalidBody: bankBodyError },
})
export const reversal = /* @__PURE__ */ ledger({
  functionId: 'transactions-reversal',
  metric: 'transactions',
  routes: [{ method: 'POST', path: '/api/v1/transactions/reversal' }],
  access: moneyMoves,
  request: { body: ReversalRequest, invalidBody: bankBodyError },
})

/**
 * The transaction status query: one GetItem of the request record (or the session id's); for an id
 * never received, one conditional put of its final "not received" at the same key
 * (lib/ledger/status-query.ts).
 */
export const statusQuery = /* @__PURE__ */ ledger({
  functionId: 'transactions-status-query',
  routes: [{ method: 'POST', path: '/api/v1/transactions/status-query' }],
  access: { table: [writes(['BANKREQ#', 'BANKSESSION#'])] },
  request: { body: StatusQueryRequest, invalidBody: bankBodyError },
})

const common = () => ({
  requestId: z.string().meta({ description: 'The idempotency key of the request, as sent' }),
  stan: z.string().meta({ description: 'System trace audit number, as sent' }),
  processingCode: z.string().meta({ description: 'ISO 8583 processing code, as sent' }),
})
const sessionIdMember = () =>
  z.string().optional().meta({ description: 'The NIP session id, as sent (absent when none was)' })
const naira = (description: string) => z.number().meta({ description: `${description}, naira (2 decimals)` })

const INVALID = 'The body is invalid: code 13 when the amount is at fault, 30 otherwise; every problem listed'
const exampleCommon = { requestId: 'REQ-20261121-0001', stan: '000001', processingCode: '000000' }
const transferExample = (accountNumber: string) => ({
  ...exampleCommon,
  merchantId: 'MRC0001',
  merchantReference: 'ORDER-1001',
  accountNumber,
  amount: 1500.5,
  currency: 'NGN',
  productCode: 'AIRTIME',
  narration: 'Airtime top-up',
})

export const balanceEnquiryDocs = (): EndpointDocs => ({
  summary: 'Balance enquiry',
  description: "The account's available balance. A read: nothing is recorded, and no money moves.",
  example: { ...exampleCommon, accountNumber: '0123456789' },
  examples: {
    sandboxApproves: {
      summary: 'Test mode: account 1000000000, opened with 1,000,000.00',
      value: { ...exampleCommon, accountNumber: '1000000000' },
    },
  },
  replies: () => ({
    200: {
      description: 'responseCode 00 with the balance',
      data: z.object({
        ...common(),
        accountNumber: z.string().meta({ description: 'The queried account (NUBAN)' }),
        availableBalance: naira('Available balance'),
        currency: z.string().meta({ description: 'NGN' }),
      }),
    },
    400: INVALID,
    404: 'No account has this number (code 14)',
  }),
})

export const nameEnquiryDocs = (): EndpointDocs => ({
  summary: 'Name enquiry',
  description:
    'Who holds the account, its currency and status, so the payer sees whom the transfer debits. A read: nothing is recorded, and no money moves. An unknown account is 14 (`RJCT` `AC02`); a dormant one is 06 (`RJCT` `AC06`), without its name. In test mode `1000000006` is dormant (docs/sandbox.md).',
  example: { requestId: 'NE-20261121-0001', accountNumber: '0123456789' },
  examples: {
    sandboxDormant: {
      summary: 'Test mode: account 1000000006 is dormant (06, RJCT AC06)',
      value: { requestId: 'NE-20261121-0002', accountNumber: '1000000006' },
    },
  },
  replies: () => ({
    200: {
      description: 'responseCode 00 with the holder, currency and status',
      data: z.object({
        requestId: z.string().meta({ description: 'As sent' }),
        accountNumber: z.string().meta({ description: 'The queried account (NUBAN)' }),
        accountName: z.string().meta({ description: "The account holder's name" }),
        currency: z.literal('NGN'),
        accountStatus: z.literal('ACTIVE').meta({ description: 'A dormant account answers 06 instead' }),
      }),
    },
    400: 'The body is invalid: code 30; every problem listed',
    404: 'No account has this number (14, RJCT AC02)',
    409: 'The account is dormant (06, RJCT AC06)',
  }),
})

export const transferDocs = (): EndpointDocs => ({
  summary: 'Debit transfer to a merchant',
  description:
    'Debits the account and credits the merchant in one DynamoDB transaction. Approved (00) and declined for insufficient funds (51) transfers are both recorded and both answer 200; responseCode says which. A repeated requestId returns the first reply. In test mode some accounts are magic (docs/sandbox.md): `1000000000` approves (opened with 1,000,000.00), `1000000051` always answers 51, `1000000006` is dormant (06), `1000000014` never exists (14), `1000000091` and `1000000096` always answer 91 (issuer unavailable) and 96 (system malfunction), HTTP 503, nothing debited; `1000000068` approves but its reply is held past any client timeout after the commit, to rehearse the status query.',
  example: transferExample('0123456789'),
  examples: {
    sandboxApproves: {
      summary: 'Test mode: account 1000000000, opened with 1,000,000.00, approves (00)',
      value: transferExample('1000000000'),
    },
    sandboxInsufficientFunds: {
      summary: 'Test mode: account 1000000051 always declines with 51 (insufficient funds)',
      value: transferExample('1000000051'),
    },
    sandboxIssuerUnavailable: {
      summary:
        'Test mode: account 1000000091 always answers 91 (issuer unavailable, HTTP 503), nothing debited',
      value: transferExample('1000000091'),
    },
    sandboxCommitsThenTimesOut: {
      summary:
        'Test mode: account 1000000068 approves and debits, then holds the reply past any client timeout: find it by the status query',
      value: transferExample('1000000068'),
    },
  },
  replies: () => ({
    200: {
      description: 'Approved (00) or declined (51): the transfer is recorded',
      data: z.object({
        ...common(),
        merchantId: z.string(),
        merchantReference: z.string(),
        accountNumber: z.string().meta({ description: 'The debited account' }),
        amount: naira('Amount'),
        currency: z.literal('NGN'),
        productCode: z.string(),
        narration: z.string().optional(),
        sessionId: sessionIdMember(),
        providerReference: z.string().meta({ description: 'TNX + unique digits: this transfer at the bank' }),
        status: z.enum(['SUCCESSFUL', 'FAILED']).meta({ description: 'FAILED when declined (code 51)' }),
        completedAt: z.string().meta({ description: 'Lagos local date-time, YYYY-MM-DDTHH:MM:SS.sss' }),
      }),
    },
    400: INVALID,
    404: 'Unknown account (14) or merchant (03), or a status query already found its sessionId never received (25, final)',
    409: 'The requestId was already used for a different request, or the sessionId by another requestId (26, RJCT AM05); or the account is dormant (06)',
    503: 'Test mode, account 1000000091 or 1000000096: the issuer (91) or the system (96) is unavailable, nothing was debited; or the account is busy (96), retry with the same requestId',
  }),
})

export const reversalDocs = (): EndpointDocs => ({
  summary: 'Reverse a transfer',
  description:
    "Credits a successful transfer back to its account, exactly once, within 30 days of the transfer (the stage's `ledger.reversalWindowDays`; later is 12, `RJCT` `TM01`). Full amount only: `amount` may be left out, and when sent must be the transfer's full amount (another is 13, `RJCT` `AM12`). A repeated requestId returns the first reply.",
  example: { ...exampleCommon, requestId: 'REQ-20261121-0002', originalRequestId: 'REQ-20261121-0001' },
  replies: () => ({
    200: {
      description: 'Reversed (00)',
      data: z.object({
        ...common(),
        originalRequestId: z.string(),
        sessionId: sessionIdMember(),
        providerReference: z.string().meta({ description: 'The original transfer at the bank' }),
        accountNumber: z.string().meta({ description: 'The credited-back account' }),
        amount: naira('Amount returned'),
        currency: z.literal('NGN'),
        status: z.literal('REVERSED'),
        reversedAt: z.string().meta({ description: 'Lagos local date-time' }),
      }),
    },
    400: `${INVALID}; or an amount that is not the transfer's full amount (13, RJCT AM12)`,
    404: 'The original transfer was not found (25), or a status query already found this sessionId never received (25, final)',
    409: 'The original was declined (12, FF12), already reversed (12, ARDT) or is past the reversal window (12, TM01), or the requestId was used for something else or the sessionId by another requestId (26)',
  }),
})

export const statusQueryDocs = (): EndpointDocs => ({
  summary: 'Transaction status query',
  description:
    "What became of a transfer or reversal whose reply was lost (a timeout): its FIRST reply, every field as it was first sent except this reply's own `traceId` and `timestamp`, plus `queriedAt`; kept for at least 400 days. Every transfer and reversal is final when answered, so no answer is pending: query 15 s after a timeout. A requestId this switch client never sent answers 25 (`RJCT` `AG09`) and that answer is FINAL: it is recorded, and the original arriving afterwards (within the 300 s signature window) is refused with the same 25 and never debited. Another switch client's ids are never found (25). By `sessionId` (the NIP session id the transfer or reversal carried) instead of `requestId`, the same: one of the two, never both. One read; a first query for an unknown id adds one conditional write.",
  example: { requestId: 'REQ-20261121-0001' },
  examples: {
    bySessionId: {
      summary: 'By the NIP session id the transfer carried',
      value: { sessionId: '000015261121101530000000000001' },
    },
  },
  replies: () => ({
    200: {
      description:
        'The first reply of the transfer (00 or 51) or reversal (00), with queriedAt; its fields as in the transfer and reversal replies',
      data: z
        .object({
          requestId: z.string().meta({ description: 'The requestId queried, as first sent' }),
          queriedAt: z.string().meta({ description: 'UTC time of this query, ISO 8601' }),
        })
        .catchall(z.unknown()),
    },
    400: INVALID,
    404: 'No transfer or reversal with this requestId was received (25, RJCT AG09): final, recorded, and the original is refused if it arrives later',
  }),
})
