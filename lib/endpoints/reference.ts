import * as z from 'zod'
import { endpoint } from '#lib/http/endpoint.ts'
import { REFERENCE_LISTS, type ReferenceListName } from '#lib/routes.ts'

/** The reference lists (A.8) and the public keys (CONTRACT sections 4 and 5). */

const text = (description: string) => z.string().meta({ description })

/** The row of each list, as the authority publishes it (data/reference/SOURCES.md). */
const ROWS: Record<ReferenceListName, z.ZodType> = {
  countries: z.looseObject({ name: text('Country name'), alpha_2: text('ISO 3166-1 alpha-2 code') }),
  currencies: z.looseObject({ code: text('ISO 4217 code'), name: text('Currency name') }),
  'invoice-types': z.object({ code: text('Invoice type code'), value: text('Its meaning') }),
  lgas: z.looseObject({
    code: text('LGA code NG-XX-YYY'),
    name: text('LGA name'),
    state_code: text('State'),
  }),
  'payment-means': z.object({ code: text('Payment means code'), value: text('Its meaning') }),
  'product-codes': z.looseObject({ hscode: text('HS code'), description: text('Product description') }),
  'service-codes': z.looseObject({ code: text('Service code'), description: text('Service description') }),
  states: z.object({ code: text('State code NG-XX'), name: text('State name') }),
  'tax-categories': z.looseObject({
    code: text('Tax category id'),
    value: text('Its meaning'),
    percent: text('Rate, percent'),
  }),
  'vat-exemptions': z.looseObject({
    harmonized_system_code: text('HS code (codes repeat: rows are keyed by position)'),
    description: text('Exempt goods or services'),
  }),
}

/** The declaration of one list's endpoint. */
function referenceList(list: ReferenceListName) {
  return endpoint({
    functionId: `resource-${list}`,
    summary: `The ${list} reference list`,
    description: `The ${list} list, with its version in the message. Sent with ETag and Last-Modified; If-None-Match with the current ETag gives 304 and no body.`,
    request: {
      headers: [
        {
          name: 'If-None-Match',
          description: 'The ETag of the copy you hold',
          schema: z.string(),
        },
      ],
    },
    replies: {
      200: {
        description: 'The list',
        data: z.array(ROWS[list]),
        headers: { ETag: 'The list version', 'Last-Modified': 'When the list was loaded' },
      },
      304: { description: 'Not modified: the If-None-Match ETag is current', empty: true },
      503: 'The list has not been loaded into this deployment',
    },
  })
}

export const PublicJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().meta({ description: 'The raw public key, base64url' }),
  kid: z.string().meta({ description: 'RFC 7638 thumbprint of the key' }),
  use: z.literal('sig'),
  alg: z.literal('EdDSA'),
})
export const Jwks = z.object({ keys: z.array(PublicJwk) }).meta({ id: 'Jwks' })

export const publicKeys = endpoint({
  functionId: 'resource-public-keys',
  summary: 'The public keys that verify invoice signatures (JWKS)',
  description:
    'Ed25519 keys (RFC 8037); kid is the RFC 7638 thumbprint. Every key that has signed stays listed. Public, so anyone holding a signed invoice can verify it.',
  request: {},
  replies: { 200: { description: 'The JSON Web Key Set', data: Jwks } },
})

/** Each list's declaration, by list name. */
export const referenceLists = Object.fromEntries(
  REFERENCE_LISTS.map((list) => [list, referenceList(list)]),
) as Record<ReferenceListName, ReturnType<typeof referenceList>>
