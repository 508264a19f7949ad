/**
 * The TIN forms the service accepts (CONTRACT sections 9 and 17): the authority's `NNNNNNNN-NNNN`,
 * the 13-digit Tax ID of the NRS/JRB notice of May 2026 (digits only, no separator), and the `TIN-` +
 * digits form of the authority's own published samples (e.g. `TIN-0099990001`). Anything else is a
 * format error. One pattern for invoice parties, verify-tin, the search's buyer filter and the
 * businesses the CLI registers, so a form accepted in one place is accepted in all of them.
 */
export const TIN_PATTERN = /^(?:\d{8}-\d{4}|\d{13}|TIN-\d+)$/

/** The forms, as a person reads them in an error message. */
export const TIN_FORMS =
  'NNNNNNNN-NNNN (e.g. 12345678-0001), the 13-digit Tax ID (e.g. 1234567890123) or TIN- and digits (e.g. TIN-0099990001)'
