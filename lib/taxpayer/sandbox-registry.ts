import { currentMode } from '#lib/platform/mode.ts'
import { MAGIC_TINS } from '#lib/sandbox/magic.ts'
import type { Taxpayer, TaxpayerRegistry } from './registry.ts'

/** The taxpayer the sandbox's active magic TIN verifies as (docs/sandbox.md). */
const SANDBOX_TAXPAYER: Omit<Taxpayer, 'tin'> = {
  taxpayerName: 'Sandbox Active Taxpayer Ltd',
  address: '1 Test Street, Victoria Island, Lagos',
  taxOfficerId: 'TO-TEST-0001',
  taxOfficerName: 'Sandbox Tax Office',
  rcNumber: 'RC0000001',
  email: 'sandbox@taxpayer.example',
  phone: '+2340000000001',
}

const ACTIVE: readonly string[] = [MAGIC_TINS.active, MAGIC_TINS.activeTaxId]
const NOT_FOUND: readonly string[] = [MAGIC_TINS.notFound, MAGIC_TINS.notFoundTaxId]

/**
 * A registry that answers the magic TINs itself in test mode (CONTRACT sections 15 and 17), without a
 * read: `00000000-0001` and the 13-digit `0000000000001` are an active taxpayer, `00000000-0002` and
 * `0000000000002` are not found. Every other TIN, and every TIN in live mode, is the registry's to
 * answer.
 */
export function withSandboxTins(registry: TaxpayerRegistry): TaxpayerRegistry {
  return {
    async lookup(tin) {
      if (currentMode() === 'test') {
        if (ACTIVE.includes(tin)) return { tin, ...SANDBOX_TAXPAYER }
        if (NOT_FOUND.includes(tin)) return undefined
      }
      return registry.lookup(tin)
    },
  }
}
