import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import { inMode } from '#lib/platform/mode.ts'
import { MAGIC_ACCOUNT_NUMBERS, magicAccount } from '#lib/sandbox/magic.ts'

/**
 * The development accounts and merchants of CONTRACT section 8, made through the ledger's own
 * repository. An account that already exists keeps its balance (a persistent DATA_DIR is not reset).
 * Local server and tests only: nothing deploys this file.
 */
export const DEV_LEDGER = {
  accounts: [
    { accountNumber: '0123456789', name: 'Dev Account One', balanceKobo: 100_000_000 },
    { accountNumber: '0987654321', name: 'Dev Account Two', balanceKobo: 50_000 },
  ],
  merchants: [
    { merchantId: 'MRC0001', name: 'Dev Merchant One' },
    { merchantId: 'MRC0002', name: 'Dev Merchant Two' },
  ],
} as const

export async function seedLedger(): Promise<void> {
  await Promise.all([
    ...DEV_LEDGER.accounts.map((a) => openAccount({ ...a })),
    ...DEV_LEDGER.merchants.map((m) => addMerchant({ ...m })),
    // The sandbox's magic accounts (CONTRACT section 15), in test mode. A deployed stack opens them
    // on their first use in test mode (lib/ledger/service.ts); seeding them here only lets `npm start`
    // show them from the first balance enquiry. Merchants have no mode: test transfers pay the same ones.
    inMode('test', () => Promise.all(MAGIC_ACCOUNT_NUMBERS.map((n) => openAccount(magicAccount(n)!)))),
  ])
}
