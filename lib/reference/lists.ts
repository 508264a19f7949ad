/** The reference lists the API serves (A.8), one route and one function each (lib/service/routes.ts). */
export const REFERENCE_LISTS = [
  'vat-exemptions',
  'tax-categories',
  'states',
  'lgas',
  'service-codes',
  'product-codes',
  'payment-means',
  'invoice-types',
  'currencies',
  'countries',
] as const
export type ReferenceListName = (typeof REFERENCE_LISTS)[number]
