import { currentMode } from '#lib/platform/mode.ts'

/**
 * The sandbox's magic values (CONTRACT section 15, docs/sandbox.md): inputs that give one outcome
 * every time, so an integrator can make the sandbox answer each case on purpose. Test mode only: in
 * live mode every function here says "not magic" and the value is an ordinary TIN or account number.
 * The domain asks these at the few points where test mode behaves differently, and nowhere else.
 */
const inTest = () => currentMode() === 'test'

/** Answered by lib/taxpayer/sandbox-registry.ts, which sits in front of the registry. */
export const MAGIC_TINS = {
  /** verify-tin answers an active taxpayer. */
  active: '00000000-0001',
  /** verify-tin answers 404, as for a TIN the registry does not hold. */
  notFound: '00000000-0002',
  /** `active` in the 13-digit Tax ID form (CONTRACT 17), so a client that sends only that form has one too. */
  activeTaxId: '0000000000001',
  /** `notFound` in the 13-digit Tax ID form. */
  notFoundTaxId: '0000000000002',
} as const

export const MAGIC_BUYERS = {
  /** A buyer whose system is up: transmit succeeds and invoice.received goes to the supplier's own subscriptions. */
  up: '00000000-0101',
  /** A buyer whose system is down: transmit answers 503, as for a buyer whose webhook is down. */
  down: '00000000-0102',
} as const

export const MAGIC_ACCOUNTS = {
  /** Approves: opened with 1,000,000.00. */
  approves: '1000000000',
  /** Always declined with 51 (insufficient funds): opened with 0.00, and nothing ever credits it. */
  insufficientFunds: '1000000051',
  /** Always 91 (issuer unavailable): nothing is debited and nothing recorded. */
  issuerUnavailable: '1000000091',
  /** Dormant: a name enquiry answers 06 (RJCT AC06) and a transfer is refused with 06; opened with 0.00. */
  dormant: '1000000006',
  /** Never opened: 14 (RJCT AC02, no such account) to every request, whatever was done before. */
  unknown: '1000000014',
  /** Always 96 (system malfunction, HTTP 503 with Retry-After): nothing is debited and nothing recorded. */
  systemMalfunction: '1000000096',
  /**
   * Approves as 1000000000 does (opened with 1,000,000.00), but the transfer's reply is held after the
   * commit until every client has given up (ISO 8583's 68, "response received too late"): the switch
   * learns the outcome by the status query, as after a real timeout.
   */
  commitsThenTimesOut: '1000000068',
} as const

/** The system a magic buyer TIN has in test mode: `up`, `down`, or undefined when it is not magic here. */
export function magicBuyerSystem(tin: string | undefined): 'up' | 'down' | undefined {
  if (!inTest() || !tin) return undefined
  if (tin === MAGIC_BUYERS.up) return 'up'
  if (tin === MAGIC_BUYERS.down) return 'down'
  return undefined
}

/**
 * The account a magic account number opens as in test mode (created on first use by the ledger, so
 * every deployed stack has them without an operator's step), or undefined when it is not magic here.
 */
export function magicAccount(
  accountNumber: string,
): { accountNumber: string; name: string; balanceKobo: number; status?: 'DORMANT' } | undefined {
  if (!inTest()) return undefined
  switch (accountNumber) {
    case MAGIC_ACCOUNTS.approves:
      return { accountNumber, name: 'Sandbox: always approves', balanceKobo: 100_000_000 }
    case MAGIC_ACCOUNTS.insufficientFunds:
      return { accountNumber, name: 'Sandbox: always 51', balanceKobo: 0 }
    case MAGIC_ACCOUNTS.issuerUnavailable:
      return { accountNumber, name: 'Sandbox: always 91', balanceKobo: 100_000_000 }
    case MAGIC_ACCOUNTS.dormant:
      return { accountNumber, name: 'Sandbox: dormant', balanceKobo: 0, status: 'DORMANT' }
    case MAGIC_ACCOUNTS.systemMalfunction:
      return { accountNumber, name: 'Sandbox: always 96', balanceKobo: 100_000_000 }
    case MAGIC_ACCOUNTS.commitsThenTimesOut:
      return { accountNumber, name: 'Sandbox: commits, then times out', balanceKobo: 100_000_000 }
    default:
      return undefined
  }
}

/**
 * What a magic account answers before anything is read, in test mode: its issuer unavailable (91),
 * the bank's own system down (96), or no such account (14); undefined for every other account.
 */
export function sandboxRefusal(
  accountNumber: string,
): 'issuer-unavailable' | 'system-malfunction' | 'unknown-account' | undefined {
  if (!inTest()) return undefined
  switch (accountNumber) {
    case MAGIC_ACCOUNTS.issuerUnavailable:
      return 'issuer-unavailable'
    case MAGIC_ACCOUNTS.systemMalfunction:
      return 'system-malfunction'
    case MAGIC_ACCOUNTS.unknown:
      return 'unknown-account'
    default:
      return undefined
  }
}

/** The magic account whose transfers commit and then reply too late, in test mode. */
export const commitsThenTimesOut = (accountNumber: string) =>
  inTest() && accountNumber === MAGIC_ACCOUNTS.commitsThenTimesOut

/** Every magic account that exists, for the local seed: all but the one that is never opened (14). */
export const MAGIC_ACCOUNT_NUMBERS = Object.values(MAGIC_ACCOUNTS).filter((n) => n !== MAGIC_ACCOUNTS.unknown)
