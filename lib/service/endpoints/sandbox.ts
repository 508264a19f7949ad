import { AREA_B_TIMEOUT_SECONDS } from '#lib/ledger/final-within.ts'
import * as z from 'zod'
import { TEST_CLOCK_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpoint, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import { bankBodyError } from '#lib/ledger/schemas.ts'
import { AdvanceClockRequest } from '#lib/sandbox/schemas.ts'
import { BUSINESS_ADMIN, reads, writes } from './common.ts'

/** The sandbox's test clock (CONTRACT section 15; docs/sandbox.md). Test-mode ADMIN keys only. */

const sandbox = /* @__PURE__ */ endpointsOf({ domain: 'sandbox', ...BUSINESS_ADMIN })

export const clockAdvance = /* @__PURE__ */ sandbox({
  functionId: 'test-clock-advance',
  routes: [{ method: 'POST', path: '/test/clock/advance' }],
  // Moves the clock item; then queues the business's deliveries now due in test time: reads its
  // subscriptions and each one's PENDING listing (gsi1), and sends to test mode's delivery queue.
  access: {
    table: [writes([TEST_CLOCK_PREFIX]), reads(['WEBHOOKS#', 'WHDELIVERY#'], ['gsi1'])],
    queues: ['webhook-test-deliveries'],
  },
  request: { body: AdvanceClockRequest },
})

export const clockRead = /* @__PURE__ */ sandbox({
  functionId: 'test-clock',
  routes: [{ method: 'GET', path: '/test/clock' }],
  access: { table: [reads([TEST_CLOCK_PREFIX])] },
  request: {},
})

/**
 * The sandbox bank's clock (Areas B and C, lib/platform/test-clock.ts): test transfers are stamped with it,
 * so merchant statement days follow it. Moved by the test switch, whose transfers it stamps.
 */
export const bankClockAdvance = /* @__PURE__ */ endpoint({
  functionId: 'test-bank-clock-advance',
  domain: 'sandbox',
  stack: 'payments',
  area: 'B',
  auth: 'switch-signature',
  reply: 'bank',
  roles: [],
  routes: [{ method: 'POST', path: '/api/v1/transactions/test/clock/advance' }],
  // Area B's bound, as the other switch calls (lib/ledger/final-within.ts).
  timeoutSeconds: AREA_B_TIMEOUT_SECONDS,
  access: { table: [writes([TEST_CLOCK_PREFIX])] },
  request: { body: AdvanceClockRequest, invalidBody: bankBodyError },
})

const Clock = /* @__PURE__ */ lazy(() =>
  z.object({
    test_time: z.string().meta({ description: "The business's test-mode time now, ISO 8601 UTC" }),
    offset_seconds: z.int().meta({ description: 'How far the test clock is ahead of the real time' }),
  }),
)
const LIVE_KEY = 'The key is a live one: the test clock exists in test mode only (use a test-mode ADMIN key)'

export const clockAdvanceDocs = (): EndpointDocs => ({
  summary: "Advance the business's test clock (test mode, ADMIN)",
  description:
    "Moves the business's test-mode time forward by `seconds` (1 to 2,592,000, 30 days, per call, and at most 315,360,000, 10 years, in all; it never goes back). Webhook retries and their final failure and Idempotency-Key expiry follow it: deliveries whose next attempt is now due are attempted at once, and a jump past the whole retry schedule runs it out within seconds, ending FAILED. Live keys get 403.",
  example: { seconds: 90_000 },
  replies: () => ({
    200: {
      description: 'The new test time',
      data: Clock().extend({
        due_deliveries_queued: z.int().meta({ description: 'Webhook deliveries now due, queued at once' }),
      }),
    },
    400: 'seconds is not a whole number from 1 to 2,592,000, or would take the clock more than 10 years ahead in all (TEST_CLOCK_LIMIT)',
    403: `The API key lacks the ADMIN role, or: ${LIVE_KEY}`,
  }),
})

export const clockReadDocs = (): EndpointDocs => ({
  summary: "The business's test clock (test mode, ADMIN)",
  description:
    "The business's test-mode time now, and how far it is ahead of the real time. Live keys get 403.",
  replies: () => ({
    200: { description: 'The test time', data: Clock() },
    403: `The API key lacks the ADMIN role, or: ${LIVE_KEY}`,
  }),
})

export const bankClockAdvanceDocs = (): EndpointDocs => ({
  summary: "Advance the sandbox bank's test clock (test mode)",
  description:
    "Moves the test-mode time of the sandbox's bank forward by `seconds` (1 to 2,592,000 per call, at most 10 years in all; it never goes back): test transfers and reversals are stamped with it, so the Lagos day a test transfer counts in (GET /api/v1/merchant/statement) and its completedAt follow it. One clock for every test switch client and merchant; a business's clock (POST /api/v1/test/clock/advance) is another. A live switch credential gets 403.",
  example: { seconds: 86_400 },
  replies: () => ({
    200: {
      description: 'The new test time of the bank',
      data: Clock(),
    },
    400: 'seconds is not a whole number from 1 to 2,592,000 (code 30), or would take the clock more than 10 years ahead in all (TEST_CLOCK_LIMIT)',
    403: 'The switch credential is a live one: the test clock exists in test mode only',
  }),
})
