import { randomUUID } from 'node:crypto'

/**
 * The body of POST /api/v1/transactions/transfer (CONTRACT section 6): 10.00 NGN from the development
 * account 0123456789 to the development merchant MRC0001, with a fresh requestId and merchantReference
 * each time. A test overrides only what it is about.
 */
export const transferBody = (overrides: Record<string, unknown> = {}) => ({
  requestId: `REQ-${randomUUID()}`,
  stan: '123456',
  processingCode: '400000',
  merchantId: 'MRC0001',
  merchantReference: `ORD-${randomUUID()}`,
  accountNumber: '0123456789',
  amount: 10,
  currency: 'NGN',
  productCode: 'AIRTIME',
  ...overrides,
})
