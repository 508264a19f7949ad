import { modelFromInvoice } from './from-invoice.ts'
import { judge } from './judge.ts'
import type { Finding } from './model.ts'

/**
 * The entry of the EN 16931 chunk (infra/constructs/api-function.ts, EN16931_CHUNK): the business
 * rules' findings on an invoice record, JSON as sent or mapped from UBL (CONTRACT 22), so that the
 * same invoice in either form has the same findings. Loaded by ./loader.ts on first use.
 */
export const findingsOf = (record: object): Finding[] => judge(modelFromInvoice(record))
