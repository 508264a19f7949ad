/**
 * CONTRACT 24, "final within 10 s": a transfer or reversal has committed or failed, for good, within
 * FINAL_WITHIN_SECONDS of its receipt, so a status query 15 s after a switch's timeout is conclusive
 * (docs/payments.md, "When a reply does not come"). The Area B functions' timeout is declared from
 * this (lib/service/endpoints/ledger.ts), and Lambda ends an invocation at it: a TransactWriteItems
 * already sent then commits or fails within DynamoDB's own request time, far under the margin left
 * (about a second for a cold start and one more for the last request in flight).
 */
export const FINAL_WITHIN_SECONDS = 10

/** The Area B functions' timeout; test/infra/area-b-timeouts.test.ts holds it under the bound. */
export const AREA_B_TIMEOUT_SECONDS = 6

/**
 * How long a transfer or reversal goes on retrying a busy account (lib/platform/db/retry.ts): less
 * than the timeout, so a busy account is answered 96 (retry with the same requestId) by the function
 * rather than cut off by Lambda without a bank reply.
 */
export const AREA_B_RETRY_BUDGET_MS = 4_000
