import {
  issueApiClient,
  issueMerchantToken,
  issueNotifyAdminKey,
  issueSwitchClient,
} from '#lib/platform/auth/credentials.ts'
import { Conflict } from '#lib/platform/errors.ts'
import { createBusiness, getBusiness } from '#lib/registry/businesses.ts'

/**
 * The development credentials of CONTRACT section 8, made through the same functions the CLI uses.
 * Local server and tests only: nothing deploys this file.
 */
export const DEV = {
  supplier: {
    businessId: '11111111-1111-4111-8111-111111111111',
    serviceId: '94ND90NR',
    tin: '12345678-0001',
    name: 'Dev Supplier Ltd',
    email: 'accounts@devsupplier.example',
  },
  buyer: {
    businessId: '22222222-2222-4222-8222-222222222222',
    serviceId: '7HQ2K8ZP',
    tin: '87654321-0001',
    name: 'Dev Buyer Plc',
    email: 'payables@devbuyer.example',
  },
  other: {
    businessId: '33333333-3333-4333-8333-333333333333',
    serviceId: 'Q4TR8WLM',
    tin: '11223344-0001',
    name: 'Other Business Nig Ltd',
    email: 'info@otherbusiness.example',
  },
  clients: {
    si: { apiKey: 'dev-si-key', secret: 'dev-si-secret' },
    app: { apiKey: 'dev-app-key', secret: 'dev-app-secret' },
    admin: { apiKey: 'dev-admin-key', secret: 'dev-admin-secret' },
    buyer: { apiKey: 'dev-buyer-key', secret: 'dev-buyer-secret' },
    other: { apiKey: 'dev-other-key', secret: 'dev-other-secret' },
  },
  switch: { clientId: 'dev-switch', token: 'dev-switch-token', secret: 'dev-switch-secret' },
  merchants: [
    { merchantId: 'MRC0001', token: 'dev-merchant-token' },
    { merchantId: 'MRC0002', token: 'dev-merchant2-token' },
  ],
  notifyAdmin: { adminKeyId: 'dev-notify', token: 'dev-notify-key' },
} as const

/**
 * The test-mode twins (CONTRACT section 15): the same business and merchant as their live
 * counterparts, in the sandbox. Area D has no test mode (it administers the operator's own lists).
 */
export const DEV_TEST = {
  clients: {
    si: { apiKey: 'test-si-key', secret: 'test-si-secret' },
    app: { apiKey: 'test-app-key', secret: 'test-app-secret' },
    admin: { apiKey: 'test-admin-key', secret: 'test-admin-secret' },
  },
  switch: { clientId: 'test-switch', token: 'test-switch-token', secret: 'test-switch-secret' },
  merchant: { merchantId: 'MRC0001', token: 'test-merchant-token' },
} as const

/**
 * A credential the table already holds (a kept DATA_DIR) is kept as it is: a refusal as taken (a
 * Conflict, or the switch client's failed put condition) is no error here.
 */
const kept = (issued: Promise<unknown>): Promise<unknown> =>
  issued.catch((error: unknown) => {
    if (error instanceof Conflict || (error as Error).name === 'ConditionalCheckFailedException') return
    throw error
  })

/** Each issue after the one before it has been kept (or found already issued). */
async function inTurn(issues: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const issue of issues) await kept(issue())
}

/**
 * Idempotent, so that `npm start` restarts on a table kept on disk (DATA_DIR): the businesses are
 * created only when missing, and a credential already issued is kept.
 */
export async function seedDevelopmentCredentials(): Promise<void> {
  await Promise.all(
    [DEV.supplier, DEV.buyer, DEV.other].map(
      async (b) => (await getBusiness(b.businessId)) ?? createBusiness(b),
    ),
  )
  const { clients } = DEV
  const test = DEV_TEST.clients
  const supplier = DEV.supplier.businessId
  const mode = 'test'
  const issued = [
    // A business's keys share a count per mode (lib/platform/auth/key-count.ts), which the first issue
    // of each mode sets up: issued one after another, not racing for it (on a loaded machine the
    // race outlasts the count's retries and the seed fails).
    inTurn([
      () => issueApiClient({ ...clients.si, businessId: supplier, roles: ['SI'] }),
      () => issueApiClient({ ...clients.app, businessId: supplier, roles: ['APP'] }),
      () => issueApiClient({ ...clients.admin, businessId: supplier, roles: ['ADMIN'] }),
      () => issueApiClient({ ...test.si, businessId: supplier, roles: ['SI'], mode }),
      () => issueApiClient({ ...test.app, businessId: supplier, roles: ['APP'], mode }),
      () => issueApiClient({ ...test.admin, businessId: supplier, roles: ['ADMIN'], mode }),
    ]),
    issueApiClient({ ...clients.buyer, businessId: DEV.buyer.businessId, roles: ['SI', 'APP'] }),
    issueApiClient({ ...clients.other, businessId: DEV.other.businessId, roles: ['SI', 'APP'] }),
    issueSwitchClient({ name: 'Development switch', ...DEV.switch }),
    ...DEV.merchants.map((m) => issueMerchantToken(m)),
    issueNotifyAdminKey(DEV.notifyAdmin),
    issueSwitchClient({ name: 'Development switch (test mode)', ...DEV_TEST.switch, mode }),
    issueMerchantToken({ ...DEV_TEST.merchant, mode }),
  ]
  await Promise.all(issued.map(kept))
}
