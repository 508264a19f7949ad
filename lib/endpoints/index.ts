import { type DocumentedEndpoint, documented } from '#lib/http/endpoint.ts'
import { REFERENCE_LISTS } from '#lib/routes.ts'
import { healthCheck, healthCheckDocs } from './health.ts'
import { appSign, appSignDocs, appValidate, appValidateDocs, siValidate, siValidateDocs } from './invoice.ts'
import { emailList, emailListDocs } from './email-list.ts'
import * as events from './events.ts'
import { generateInvoiceNumber, generateInvoiceNumberDocs } from './invoice-number.ts'
import * as irn from './irn.ts'
import * as ledger from './ledger.ts'
import * as lifecycle from './lifecycle.ts'
import {
  merchantStatement,
  merchantStatementDocs,
  merchantTransactions,
  merchantTransactionsDocs,
} from './merchant.ts'
import { docs, docsDocs, openapi, openapiDocs } from './meta.ts'
import * as notifications from './notifications.ts'
import { generateQrCode, generateQrCodeDocs, verifyQr, verifyQrDocs } from './qr.ts'
import { publicKeys, publicKeysDocs, referenceListDocs, referenceLists } from './reference.ts'
import { verifyTin, verifyTinDocs } from './taxpayer.ts'

/**
 * Every endpoint with its document half, by the route table's functionId: what the OpenAPI document,
 * the docs page and the contract tests read. A function imports only its own endpoint (the request
 * half), so no function bundles this index or any reply schema.
 */
const all: DocumentedEndpoint[] = [
  documented(siValidate, siValidateDocs),
  documented(appValidate, appValidateDocs),
  documented(appSign, appSignDocs),
  documented(irn.generateIrn, irn.generateIrnDocs),
  documented(irn.validateIrn, irn.validateIrnDocs),
  documented(generateQrCode, generateQrCodeDocs),
  documented(verifyQr, verifyQrDocs),
  documented(generateInvoiceNumber, generateInvoiceNumberDocs),
  documented(verifyTin, verifyTinDocs),
  documented(lifecycle.transmit, lifecycle.transmitDocs),
  documented(lifecycle.update, lifecycle.updateDocs),
  documented(lifecycle.confirm, lifecycle.confirmDocs),
  documented(lifecycle.getInvoice, lifecycle.getInvoiceDocs),
  documented(healthCheck, healthCheckDocs),
  documented(publicKeys, publicKeysDocs),
  ...REFERENCE_LISTS.map((list) => documented(referenceLists[list], () => referenceListDocs(list))),
  documented(ledger.balanceEnquiry, ledger.balanceEnquiryDocs),
  documented(ledger.transfer, ledger.transferDocs),
  documented(ledger.reversal, ledger.reversalDocs),
  documented(merchantTransactions, merchantTransactionsDocs),
  documented(merchantStatement, merchantStatementDocs),
  documented(notifications.templateCreate, notifications.templateCreateDocs),
  documented(notifications.templateList, notifications.templateListDocs),
  documented(notifications.templateReplace, notifications.templateReplaceDocs),
  documented(notifications.emailAdd, notifications.emailAddDocs),
  documented(notifications.emailRemove, notifications.emailRemoveDocs),
  documented(emailList, emailListDocs),
  documented(events.subscriptionCreate, events.subscriptionCreateDocs),
  documented(events.subscriptionList, events.subscriptionListDocs),
  documented(events.subscriptionDelete, events.subscriptionDeleteDocs),
  documented(events.deliveriesList, events.deliveriesListDocs),
  documented(events.deliveryRedeliver, events.deliveryRedeliverDocs),
  documented(events.batchSubmit, events.batchSubmitDocs),
  documented(events.batchStatus, events.batchStatusDocs),
  documented(openapi, openapiDocs),
  documented(docs, docsDocs),
]

export const endpoints: ReadonlyMap<string, DocumentedEndpoint> = new Map(all.map((e) => [e.functionId, e]))
