import { putTaxpayer } from '#lib/taxpayer/dynamo-registry.ts'
import type { Taxpayer } from '#lib/taxpayer/registry.ts'
import { DEV } from './dev-credentials.ts'

/**
 * The local taxpayer registry (verify-tin): the three development businesses of CONTRACT section 8
 * under their TINs, and a handful of fictional taxpayers (names, RC numbers, officers and addresses
 * are made up; e-mail domains are `.example`). Local server and tests only.
 */
export const DEV_TAXPAYERS: Taxpayer[] = [
  {
    tin: DEV.supplier.tin,
    taxpayerName: DEV.supplier.name,
    address: '14 Adeola Odeku Street, Victoria Island, Lagos',
    taxOfficerId: 'MSTO-LA-0142',
    taxOfficerName: 'Lagos Island Medium Tax Office',
    rcNumber: 'RC1000001',
    email: DEV.supplier.email,
    phone: '+2348010000001',
  },
  {
    tin: DEV.buyer.tin,
    taxpayerName: DEV.buyer.name,
    address: '3 Aminu Kano Crescent, Wuse II, Abuja',
    taxOfficerId: 'LTO-FC-0031',
    taxOfficerName: 'Abuja Large Tax Office',
    rcNumber: 'RC1000002',
    email: DEV.buyer.email,
    phone: '+2348010000002',
  },
  {
    tin: DEV.other.tin,
    taxpayerName: DEV.other.name,
    address: '27 Trans-Amadi Road, Port Harcourt, Rivers',
    taxOfficerId: 'MSTO-RI-0077',
    taxOfficerName: 'Port Harcourt Medium Tax Office',
    rcNumber: 'RC1000003',
    email: DEV.other.email,
    phone: '+2348010000003',
  },
  {
    tin: '20481937-0001',
    taxpayerName: 'Ikenna Okafor Agro Processing Ltd',
    address: '9 Zik Avenue, Uwani, Enugu',
    taxOfficerId: 'MSTO-EN-0210',
    taxOfficerName: 'Enugu Medium Tax Office',
    rcNumber: 'RC2048193',
    email: 'finance@okaforagro.example',
    phone: '+2348031112233',
  },
  {
    tin: '30592814-0001',
    taxpayerName: 'Sahel Logistics Nigeria Ltd',
    address: '41 Ahmadu Bello Way, Kaduna',
    taxOfficerId: 'MSTO-KD-0058',
    taxOfficerName: 'Kaduna Medium Tax Office',
    rcNumber: 'RC3059281',
    email: 'tax@sahellogistics.example',
    phone: '+2348054445566',
  },
  {
    tin: '41726350-0001',
    taxpayerName: 'Adebayo & Daughters Bakery',
    address: '5 Ring Road, Ibadan, Oyo',
    taxOfficerId: 'STO-OY-0312',
    taxOfficerName: 'Ibadan Small Tax Office',
    rcNumber: 'BN4172635',
    email: 'hello@adebayobakery.example',
    phone: '+2348067778899',
  },
  {
    tin: '52837461-0002',
    taxpayerName: 'Calabar Marine Services Plc',
    address: '12 Marian Road, Calabar, Cross River',
    taxOfficerId: 'LTO-CR-0019',
    taxOfficerName: 'Calabar Large Tax Office',
    rcNumber: 'RC5283746',
    email: 'accounts@calabarmarine.example',
    phone: '+2348090001122',
  },
  {
    // Registered under the 13-digit Tax ID of the NRS/JRB notice of May 2026 (CONTRACT 17), so
    // verify-tin has a taxpayer of that form to answer outside test mode.
    tin: '3047291850016',
    taxpayerName: 'Plateau Solar Installers Ltd',
    address: '18 Ahmadu Bello Way, Jos, Plateau',
    taxOfficerId: 'MSTO-PL-0044',
    taxOfficerName: 'Jos Medium Tax Office',
    rcNumber: 'RC3047291',
    email: 'accounts@plateausolar.example',
    phone: '+2348071234567',
  },
]

export async function seedTaxpayers(): Promise<void> {
  await Promise.all(DEV_TAXPAYERS.map((taxpayer) => putTaxpayer(taxpayer)))
}
