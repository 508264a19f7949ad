import * as z from 'zod'
import { IRN_PATTERN, isRealDateStamp } from './format.ts'

/** invoice_number: 2 to 50 letters and digits (A.6). Length and characters are reported separately. */
export const InvoiceNumber = z
  .string({ error: 'invoice_number is required: 2 to 50 letters and digits' })
  .min(2, 'invoice_number must be at least 2 characters')
  .max(50, 'invoice_number must be at most 50 characters')
  .regex(
    /^[A-Za-z0-9]*$/,
    'invoice_number may contain only letters and digits (no hyphens, spaces or symbols)',
  )

/** issuance_date: `YYYYMMDD`, a day that exists. */
export const IssuanceDate = z
  .string()
  .regex(/^\d{8}$/, 'issuance_date must be 8 digits, YYYYMMDD (e.g. 20261121)')
  // Only a well-formed stamp is checked as a date, so a malformed one is reported once.
  .refine((s) => !/^\d{8}$/.test(s) || isRealDateStamp(s), 'issuance_date is not a real date')

export const Irn = z
  .string({ error: 'irn is required' })
  .regex(
    IRN_PATTERN,
    'irn must have the form <invoice_number>-<service_id>-<YYYYMMDD>, e.g. INV000042-94ND90NR-20261121',
  )
  .refine(
    (irn) => !IRN_PATTERN.test(irn) || isRealDateStamp(irn.slice(-8)),
    'the date segment of irn is not a real date',
  )
  // validate-irn registers what it accepts, so the reference follows generate-irn's invoice_number rule.
  .refine(
    (irn) => !IRN_PATTERN.test(irn) || InvoiceNumber.safeParse(irn.split('-')[0]).success,
    'the invoice reference of irn (before its first hyphen) must be 2 to 50 letters and digits',
  )

/** GenerateIRNRequest (A.6). */
export const GenerateIrnRequest = z.object({
  invoice_number: InvoiceNumber,
  issuance_date: IssuanceDate.optional(),
  service_id: z
    .string({ error: 'service_id is required: the service id assigned to your business' })
    .min(1, 'service_id must not be empty'),
  business_id: z
    .string({ error: 'business_id is required: your business id' })
    .min(1, 'business_id must not be empty'),
})
export type GenerateIrnRequest = z.output<typeof GenerateIrnRequest>

/** ValidatePreGeneratedIrnRequest (and V2, same fields); the authority's sample also sends invoice_reference. */
export const ValidateIrnRequest = z.object({
  irn: Irn,
  business_id: z
    .string({ error: 'business_id is required: your business id' })
    .min(1, 'business_id must not be empty'),
  invoice_reference: z.string().optional(),
})
export type ValidateIrnRequest = z.output<typeof ValidateIrnRequest>
