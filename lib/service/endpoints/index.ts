import {
  type DocumentedEndpoint,
  documented,
  type Endpoint,
  type EndpointDocs,
} from '#lib/platform/http/endpoint.ts'
import { REFERENCE_LISTS } from '#lib/reference/lists.ts'
import * as apiKeys from './api-keys.ts'
import * as batches from './batches.ts'
import { invoicePdf, invoicePdfDocs } from './documents.ts'
import { emailList, emailListDocs } from './email-list.ts'
import * as events from './events.ts'
import { healthCheck, healthCheckDocs } from './health.ts'
import { appSign, appSignDocs, appValidate, appValidateDocs, siValidate, siValidateDocs } from './invoice.ts'
import { generateInvoiceNumber, generateInvoiceNumberDocs } from './invoice-number.ts'
import { searchInvoices, searchInvoicesDocs } from './invoice-search.ts'
import * as irn from './irn.ts'
import * as ledger from './ledger.ts'
import * as lifecycle from './lifecycle.ts'
import {
  merchantStatement,
  merchantStatementDocs,
  merchantTransactions,
  merchantTransactionsDocs,
} from './merchant.ts'
import { docs, docsDocs, openapi, openapiDocs, unrouted } from './meta.ts'
import * as notifications from './notifications.ts'
import * as parties from './parties.ts'
import { generateQrCode, generateQrCodeDocs, verifyQr, verifyQrDocs } from './qr.ts'
import { publicKeys, publicKeysDocs, referenceListDocs, referenceLists } from './reference.ts'
import { verifyTin, verifyTinDocs } from './taxpayer.ts'
import * as receipts from './receipts.ts'
import * as receiptsPublic from './receipts-public.ts'
import * as compliance from './compliance.ts'
import * as sandbox from './sandbox.ts'
import * as webhooks from './webhooks.ts'

/**
 * Every endpoint with its document half, in the order the document lists them: what the route table
 * (lib/service/routes.ts), the stacks, the local server, the OpenAPI document and the tests read. A function
 * imports only its own declaration (the document half is never bundled), so no function bundles this
 * index.
 */
const pairs: [Endpoint, () => EndpointDocs][] = [
  [siValidate, siValidateDocs],
  [generateQrCode, generateQrCodeDocs],
  [irn.generateIrn, irn.generateIrnDocs],
  [generateInvoiceNumber, generateInvoiceNumberDocs],
  [verifyTin, verifyTinDocs],
  [appValidate, appValidateDocs],
  [appSign, appSignDocs],
  [irn.validateIrn, irn.validateIrnDocs],
  [lifecycle.transmit, lifecycle.transmitDocs],
  [lifecycle.update, lifecycle.updateDocs],
  [lifecycle.confirm, lifecycle.confirmDocs],
  [batches.batchSubmit, batches.batchSubmitDocs],
  [batches.batchStatus, batches.batchStatusDocs],
  [lifecycle.getInvoice, lifecycle.getInvoiceDocs],
  [lifecycle.confirmReceipt, lifecycle.confirmReceiptDocs],
  [lifecycle.transmitLookup, lifecycle.transmitLookupDocs],
  [lifecycle.transmitPull, lifecycle.transmitPullDocs],
  [invoicePdf, invoicePdfDocs],
  [searchInvoices, searchInvoicesDocs],
  [parties.partyCreate, parties.partyCreateDocs],
  [parties.partySearch, parties.partySearchDocs],
  [parties.entity, parties.entityDocs],
  [parties.lookupTin, parties.lookupTinDocs],
  [parties.lookupParty, parties.lookupPartyDocs],
  ...REFERENCE_LISTS.map((list): [Endpoint, () => EndpointDocs] => [
    referenceLists[list],
    () => referenceListDocs(list),
  ]),
  [healthCheck, healthCheckDocs],
  [publicKeys, publicKeysDocs],
  [verifyQr, verifyQrDocs],
  [webhooks.subscriptionCreate, webhooks.subscriptionCreateDocs],
  [webhooks.subscriptionList, webhooks.subscriptionListDocs],
  [webhooks.subscriptionDelete, webhooks.subscriptionDeleteDocs],
  [webhooks.deliveriesList, webhooks.deliveriesListDocs],
  [webhooks.deliveryRedeliver, webhooks.deliveryRedeliverDocs],
  [webhooks.subscriptionEnable, webhooks.subscriptionEnableDocs],
  [webhooks.recoveryStart, webhooks.recoveryStartDocs],
  [webhooks.recoveryStatus, webhooks.recoveryStatusDocs],
  [events.eventList, events.eventListDocs],
  [events.eventGet, events.eventGetDocs],
  [receipts.receiptsReport, receipts.receiptsReportDocs],
  [receipts.deviceRegister, receipts.deviceRegisterDocs],
  [receipts.deviceList, receipts.deviceListDocs],
  [receipts.deviceGet, receipts.deviceGetDocs],
  [receipts.deviceRevoke, receipts.deviceRevokeDocs],
  [receipts.deviceChain, receipts.deviceChainDocs],
  [receiptsPublic.receiptVerifyPage, receiptsPublic.receiptVerifyPageDocs],
  [compliance.complianceReport, compliance.complianceReportDocs],
  [apiKeys.keyIssue, apiKeys.keyIssueDocs],
  [apiKeys.keyList, apiKeys.keyListDocs],
  [apiKeys.keyRoll, apiKeys.keyRollDocs],
  [apiKeys.keyRevoke, apiKeys.keyRevokeDocs],
  [sandbox.clockAdvance, sandbox.clockAdvanceDocs],
  [sandbox.clockRead, sandbox.clockReadDocs],
  [ledger.balanceEnquiry, ledger.balanceEnquiryDocs],
  [ledger.nameEnquiry, ledger.nameEnquiryDocs],
  [ledger.transfer, ledger.transferDocs],
  [ledger.reversal, ledger.reversalDocs],
  [ledger.statusQuery, ledger.statusQueryDocs],
  [sandbox.bankClockAdvance, sandbox.bankClockAdvanceDocs],
  [merchantTransactions, merchantTransactionsDocs],
  [merchantStatement, merchantStatementDocs],
  [notifications.templateCreate, notifications.templateCreateDocs],
  [notifications.templateList, notifications.templateListDocs],
  [notifications.templateReplace, notifications.templateReplaceDocs],
  [notifications.emailAdd, notifications.emailAddDocs],
  [notifications.emailRemove, notifications.emailRemoveDocs],
  [emailList, emailListDocs],
  [openapi, openapiDocs],
  [docs, docsDocs],
]

/** Every endpoint with a route, in document order. */
export const declarations: readonly Endpoint[] = pairs.map(([endpoint]) => endpoint)

/** The catch-all (`$default`): a function with no route of its own, deployed by the edge stack. */
export { unrouted }

/** Every endpoint with its document half, by functionId. */
export const endpoints: ReadonlyMap<string, DocumentedEndpoint> = new Map(
  pairs.map(([endpoint, docsOf]) => [endpoint.functionId, documented(endpoint, docsOf)]),
)
