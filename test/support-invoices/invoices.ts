import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import canonicalize from 'canonicalize'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { InvoiceRecord, InvoiceStatus, PaymentStatus } from '#lib/invoice/record.ts'
import { lagosDateStamp } from '#lib/platform/time.ts'
import { DEV } from '../support/clients.ts'

/**
 * Test setup for the lifecycle endpoints (transmit, update, confirm, get-invoice, verify-qr): puts an
 * invoice record straight into the test table through lib, in the shape lib/invoice/record.ts defines.
 * It stands in for POST /app/invoice/sign (built in parallel by another issue): a SIGNED record with a
 * realistic invoice body (supplier DEV.supplier, customer DEV.buyer unless told otherwise), its
 * RFC 8785 content hash, and an Ed25519 signature over the canonical JSON by a throwaway key. Once the
 * sign endpoint exists, tests may sign through it instead.
 *
 * Works in the test process because startApi() runs the server in-process against the same table.
 */
type Party = { tin: string; name: string; email: string }

const signingKey = generateKeyPairSync('ed25519').privateKey
export const TEST_SIGNING_KEY_ID = 'test-support-invoices'

let sequence = 0
/** A fresh IRN of a business each call: `T<ms><n>-<service id>-<today in Lagos>`. */
export function newIrn(serviceId: string = DEV.supplier.serviceId): string {
  sequence += 1
  return `T${Date.now().toString(36).toUpperCase()}${sequence}-${serviceId}-${lagosDateStamp()}`
}

const address = (street: string, city: string, lga: string, state: string) => ({
  street_name: street,
  city_name: city,
  postal_zone: '100001',
  lga,
  state,
  country: 'NG',
})

/** An invoice as validate/sign would store it: two lines of building materials, 7.5 % VAT, adding up. */
export function invoiceBody(
  irn: string,
  options: {
    supplier?: Party
    buyer?: Party | null
    paymentStatus?: PaymentStatus
    businessId?: string
  } = {},
): Record<string, unknown> {
  const supplier = options.supplier ?? DEV.supplier
  const buyer = options.buyer === undefined ? DEV.buyer : options.buyer
  return {
    irn,
    business_id: options.businessId ?? DEV.supplier.businessId,
    issue_date: '2026-11-21',
    due_date: '2026-12-21',
    issue_time: '10:15:30',
    invoice_type_code: '396',
    invoice_kind: 'B2B',
    payment_status: options.paymentStatus ?? 'PENDING',
    document_currency_code: 'NGN',
    tax_currency_code: 'NGN',
    order_reference: 'PO-2026-0117',
    accounting_supplier_party: {
      party_name: supplier.name,
      tin: supplier.tin,
      email: supplier.email,
      telephone: '+2348010000001',
      business_description: 'Wholesale of cement and building materials',
      postal_address: address('14 Adeola Odeku Street', 'Victoria Island', 'NG-LA-ETO', 'NG-LA'),
    },
    ...(buyer
      ? {
          accounting_customer_party: {
            party_name: buyer.name,
            tin: buyer.tin,
            email: buyer.email,
            telephone: '+2348010000002',
            business_description: 'Residential construction',
            postal_address: address('3 Aminu Kano Crescent', 'Wuse II', 'NG-FC-AMA', 'NG-FC'),
          },
        }
      : {}),
    payment_means: [{ payment_means_code: '30', payment_due_date: '2026-12-21' }],
    tax_total: [
      {
        tax_amount: 89250,
        tax_subtotal: [
          { taxable_amount: 1190000, tax_amount: 89250, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } },
        ],
      },
    ],
    legal_monetary_total: {
      line_extension_amount: 1190000,
      tax_exclusive_amount: 1190000,
      tax_inclusive_amount: 1279250,
      payable_amount: 1279250,
    },
    invoice_line: [
      {
        hsn_code: '2523.29',
        product_category: 'Construction materials',
        discount_rate: 0,
        discount_amount: 0,
        fee_rate: 0,
        fee_amount: 0,
        invoiced_quantity: 100,
        line_extension_amount: 950000,
        item: { name: 'Portland cement 42.5R', description: '50 kg bag' },
        price: { price_amount: 9500, base_quantity: 1, price_unit: 'NGN per bag' },
      },
      {
        hsn_code: '7214.20',
        product_category: 'Construction materials',
        discount_rate: 0,
        discount_amount: 0,
        fee_rate: 0,
        fee_amount: 0,
        invoiced_quantity: 20,
        line_extension_amount: 240000,
        item: { name: 'Reinforcement bar 12 mm', description: '12 m length, high tensile' },
        price: { price_amount: 12000, base_quantity: 1, price_unit: 'NGN per length' },
      },
    ],
  }
}

export interface PutInvoiceOptions {
  irn?: string
  status?: InvoiceStatus
  paymentStatus?: PaymentStatus
  /** The issuing business; DEV.supplier by default. */
  businessId?: string
  supplier?: Party
  /** The customer party; DEV.buyer by default, null for an invoice without one. */
  buyer?: Party | null
}

/** Puts a SIGNED (or the given status) invoice record and returns it. */
export async function putSignedInvoice(options: PutInvoiceOptions = {}): Promise<InvoiceRecord> {
  const businessId = options.businessId ?? DEV.supplier.businessId
  const irn = options.irn ?? newIrn()
  const paymentStatus = options.paymentStatus ?? 'PENDING'
  const invoice = invoiceBody(irn, {
    supplier: options.supplier,
    buyer: options.buyer,
    paymentStatus,
    businessId,
  })
  const canonical = canonicalize(invoice)!
  const at = new Date().toISOString()
  const status = options.status ?? 'SIGNED'
  const buyerTin = (invoice.accounting_customer_party as { tin: string } | undefined)?.tin
  const record: InvoiceRecord = {
    irn,
    businessId,
    status,
    paymentStatus,
    supplierTin: (invoice.accounting_supplier_party as { tin: string }).tin,
    ...(buyerTin ? { buyerTin } : {}),
    invoice,
    contentHash: createHash('sha256').update(canonical).digest('hex'),
    ...(status === 'SIGNED' || status === 'TRANSMITTED'
      ? {
          signature: sign(null, Buffer.from(canonical), signingKey).toString('base64url'),
          signingKeyId: TEST_SIGNING_KEY_ID,
          signedAt: at,
        }
      : {}),
    validatedAt: at,
    ...(status === 'TRANSMITTED' ? { transmittedAt: at } : {}),
    createdAt: at,
    updatedAt: at,
    revision: 1,
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.invoice(irn),
        ...record,
      },
    }),
  )
  return record
}
