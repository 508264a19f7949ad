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

/**
 * A registry that answers the magic TINs itself in test mode (CONTRACT section 15), without a read:
 * `00000000-0001` is an active taxpayer and `00000000-0002` is not found. Every other TIN, and every
 * TIN in live mode, is the registry's to answer.
 */
export function withSandboxTins(registry: TaxpayerRegistry): TaxpayerRegistry {
  return {
    async lookup(tin) {
      if (currentMode() === 'test') {
        if (tin === MAGIC_TINS.active) return { tin, ...SANDBOX_TAXPAYER }
        if (tin === MAGIC_TINS.notFound) return undefined
      }
      return registry.lookup(tin)
    },
  }
}
