/**
 * The TIN forms the service accepts (CONTRACT section 9): the authority's `NNNNNNNN-NNNN`, and the
 * `TIN-` + digits form of its own published samples (e.g. `TIN-0099990001`). Anything else is a
 * format error. One pattern for invoices, verify-tin and registered businesses alike.
 */
export const TIN_PATTERN = /^(?:\d{8}-\d{4}|TIN-\d+)$/

/** The forms, as a person reads them in an error message. */
export const TIN_FORMS = 'NNNNNNNN-NNNN (e.g. 12345678-0001) or TIN- and digits (e.g. TIN-0099990001)'
