import type { Endpoint } from '#lib/http/endpoint.ts'
import { healthCheck } from './health.ts'
import { appSign, appValidate, siValidate } from './invoice.ts'
import {
  generateInvoiceNumber,
  generateIrn,
  generateQrCode,
  validateIrn,
  verifyQr,
  verifyTin,
} from './irn.ts'
import { balanceEnquiry, reversal, transfer } from './ledger.ts'
import { confirm, getInvoice, transmit, update } from './lifecycle.ts'
import { merchantTransactions } from './merchant.ts'
import { docs, openapi } from './meta.ts'
import {
  emailAdd,
  emailList,
  emailRemove,
  templateCreate,
  templateList,
  templateReplace,
} from './notifications.ts'
import { publicKeys, referenceLists } from './reference.ts'

/**
 * Every endpoint's declaration, by the route table's functionId: what the OpenAPI document, the docs
 * page and the contract tests read. A handler imports only its own declaration's module, so no
 * function bundles this index (the document's generator and the tests do).
 */
const all: Endpoint[] = [
  siValidate,
  appValidate,
  appSign,
  generateIrn,
  validateIrn,
  generateQrCode,
  verifyQr,
  generateInvoiceNumber,
  verifyTin,
  transmit,
  update,
  confirm,
  getInvoice,
  healthCheck,
  publicKeys,
  ...Object.values(referenceLists),
  balanceEnquiry,
  transfer,
  reversal,
  merchantTransactions,
  templateCreate,
  templateList,
  templateReplace,
  emailAdd,
  emailRemove,
  emailList,
  openapi,
  docs,
] as Endpoint[]

export const endpoints: ReadonlyMap<string, Endpoint> = new Map(all.map((e) => [e.functionId, e]))
