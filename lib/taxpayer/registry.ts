/**
 * The taxpayer registry verify-tin looks TINs up in. The service ships a DynamoDB-backed registry
 * (seeded locally); an adapter to the authority's own registry can replace it by implementing this.
 */
export interface Taxpayer {
  tin: string
  taxpayerName: string
  address: string
  taxOfficerId: string
  taxOfficerName: string
  rcNumber: string
  email: string
  phone: string
}

export interface TaxpayerRegistry {
  /** The taxpayer with this TIN, or undefined when the registry has none. */
  lookup(tin: string): Promise<Taxpayer | undefined>
}
