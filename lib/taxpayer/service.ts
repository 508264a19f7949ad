import { NotFound } from '#lib/platform/errors.ts'
import { dynamoTaxpayerRegistry } from './dynamo-registry.ts'
import type { TaxpayerRegistry } from './registry.ts'
import { withSandboxTins } from './sandbox-registry.ts'

/** The VerifyTinApiResponse record (A.6), every field a string. */
export interface VerifyTinApiResponse {
  message: string
  tin: string
  taxpayer_name: string
  address: string
  taxofficer_id: string
  taxofficer_name: string
  rc_number: string
  email: string
  phone: string
}

export async function verifyTin(
  tin: string,
  registry: TaxpayerRegistry = dynamoTaxpayerRegistry,
): Promise<VerifyTinApiResponse> {
  // Test mode's magic TINs are answered in front of whichever registry serves (./sandbox-registry.ts).
  const taxpayer = await withSandboxTins(registry).lookup(tin)
  if (!taxpayer) throw new NotFound(`No taxpayer with TIN ${tin} in the taxpayer registry: check the number`)
  return {
    message: 'TIN verified',
    tin: taxpayer.tin,
    taxpayer_name: taxpayer.taxpayerName,
    address: taxpayer.address,
    taxofficer_id: taxpayer.taxOfficerId,
    taxofficer_name: taxpayer.taxOfficerName,
    rc_number: taxpayer.rcNumber,
    email: taxpayer.email,
    phone: taxpayer.phone,
  }
}
