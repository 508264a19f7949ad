import * as z from 'zod'
import { DEVICE_PREFIX, RECEIPT_PREFIX, TEST_CLOCK_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { BUSINESS_ADMIN, IsoDateTime, reads } from './common.ts'

/** The B2C compliance report (CONTRACT 23): a business's devices' receipts over a range of issue days. */

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const day = (name: string) =>
  z
    .string({ error: `${name} is required: an issue day in Lagos time, YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be an issue day in Lagos time, YYYY-MM-DD (e.g. 2026-01-31)`)

export const ComplianceQuery = z.object({
  from: day('from'),
  to: day('to'),
  format: z.preprocess(
    blankIsAbsent,
    z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
  ),
})

// In the exchange stack, with the devices: the events stack is at its resource budget.
const compliance = /* @__PURE__ */ endpointsOf({ domain: 'receipts', ...BUSINESS_ADMIN, stack: 'exchange' })

export const complianceReport = /* @__PURE__ */ compliance({
  functionId: 'compliance-report',
  routes: [{ method: 'GET', path: '/compliance/report' }],
  // The business's devices (DEVICE#), each device's receipts and chain (RCPT#), the test clock.
  access: { table: [reads([DEVICE_PREFIX, RECEIPT_PREFIX, TEST_CLOCK_PREFIX])] },
  request: { query: ComplianceQuery },
})

const Counts = () =>
  z.object({
    reported: z.int().meta({ description: 'Receipts REPORTED (on time or late)' }),
    on_time: z.int(),
    late: z.int().meta({ description: 'Reported after report_by (issued_at + 24 h)' }),
    duplicates: z.int().meta({ description: 'Resends of a receipt already held (counted on its issue day)' }),
    forks: z.int().meta({ description: 'Receipts stored as FORK' }),
    rejected: z.int().meta({
      description:
        'Receipts the device signed that were REJECTED for their content (a receipt whose signature fails is no receipt of the device, and is counted nowhere)',
    }),
    gaps_open: z
      .int()
      .meta({ description: 'Gaps in the chain now, whose next receipt was issued in the range' }),
    gaps_overdue: z.int().meta({ description: "Of those, the gaps 24 h past the next receipt's issued_at" }),
    payable_amount: z
      .string()
      .meta({ description: "Sum of the reported receipts' payable amounts, 2 decimals" }),
    tax_amount: z.string().meta({ description: "Sum of the reported receipts' tax amounts, 2 decimals" }),
  })

export const complianceReportDocs = (): EndpointDocs => ({
  summary: 'The B2C compliance report',
  description:
    "Per device and in total, for the receipts issued from `from` to `to` (days in Lagos time, at most 31): receipts reported, on time, late, duplicates, forks, rejected, gaps open and overdue, and the payable and tax amounts reported; `computed_at` says when (the server's time: the business's test clock in test mode). `format=csv` gives the same as CSV (one row per device, then `TOTAL`; CONTRACT 18's quoting and neutralising), with the range and the time in `X-Report-Range` and `X-Computed-At`.",
  replies: () => ({
    200: {
      description: 'The report',
      otherMedia: {
        'text/csv': 'With format=csv: one row per device, then a TOTAL row, amounts with 2 decimals',
      },
      headers: {
        'X-Report-Range': 'CSV only: `from/to`, the issue days covered',
        'X-Computed-At': 'CSV only: when the report was computed',
      },
      data: z.object({
        from: z.string(),
        to: z.string(),
        computed_at: IsoDateTime(),
        devices: z.array(
          Counts().extend({ device_id: z.string(), name: z.string(), status: z.enum(['ACTIVE', 'REVOKED']) }),
        ),
        total: Counts(),
      }),
    },
    400: 'from or to is not a day (YYYY-MM-DD), to is before from, or the range is longer than 31 days (`COMPLIANCE_RANGE`)',
    403: 'The API key lacks the ADMIN role',
  }),
})
