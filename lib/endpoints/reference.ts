import * as z from 'zod'
import { type EndpointDocs, endpoint } from '#lib/http/endpoint.ts'
import { REFERENCE_LISTS, type ReferenceListName } from '#lib/reference/lists.ts'

/** The reference lists (A.8) and the public keys (CONTRACT sections 4 and 5). */

/** Each list's endpoint, by list name: no request schema (a GET with no parameters). */
export const referenceLists = Object.fromEntries(
  REFERENCE_LISTS.map((list) => [list, endpoint({ functionId: `resource-${list}`, request: {} })]),
) as Record<ReferenceListName, ReturnType<typeof endpoint>>

export const publicKeys = /* @__PURE__ */ endpoint({ functionId: 'resource-public-keys', request: {} })

const text = (description: string) => z.string().meta({ description })

/** The row of each list, as the authority publishes it (data/reference/SOURCES.md). */
const rowOf = (list: ReferenceListName): z.ZodType => {
  switch (list) {
    case 'countries':
      return z.looseObject({ name: text('Country name'), alpha_2: text('ISO 3166-1 alpha-2 code') })
    case 'currencies':
      return z.looseObject({ code: text('ISO 4217 code'), name: text('Currency name') })
    case 'invoice-types':
    case 'payment-means':
      return z.object({ code: text('The code'), value: text('Its meaning') })
    case 'lgas':
      return z.looseObject({
        code: text('LGA code NG-XX-YYY'),
        name: text('LGA name'),
        state_code: text('State'),
      })
    case 'product-codes':
      return z.looseObject({ hscode: text('HS code'), description: text('Product description') })
    case 'service-codes':
      return z.looseObject({ code: text('Service code'), description: text('Service description') })
    case 'states':
      return z.object({ code: text('State code NG-XX'), name: text('State name') })
    case 'tax-categories':
      return z.looseObject({
        code: text('Tax category id'),
        value: text('Its meaning'),
        percent: text('Rate, percent'),
      })
    case 'vat-exemptions':
      return z.looseObject({
        harmonized_system_code: text('HS code (codes repeat: rows are keyed by position)'),
        description: text('Exempt goods or services'),
      })
  }
}

export const referenceListDocs = (list: ReferenceListName): EndpointDocs => ({
  summary: `The ${list} reference list`,
  description: `The ${list} list, with its version in the message. Sent with ETag and Last-Modified; If-None-Match with the current ETag gives 304 and no body.`,
  headers: () => [
    { name: 'If-None-Match', description: 'The ETag of the copy you hold', schema: z.string() },
  ],
  replies: () => ({
    200: {
      description: 'The list',
      data: z.array(rowOf(list)),
      headers: { ETag: 'The list version', 'Last-Modified': 'When the list was loaded' },
    },
    304: { description: 'Not modified: the If-None-Match ETag is current', empty: true },
    503: 'The list has not been loaded into this deployment',
  }),
})

export const publicKeysDocs = (): EndpointDocs => ({
  summary: 'The public keys that verify invoice signatures (JWKS)',
  description:
    'Ed25519 keys (RFC 8037); kid is the RFC 7638 thumbprint. Every key that has signed stays listed. Public, so anyone holding a signed invoice can verify it.',
  replies: () => ({
    200: {
      description: 'The JSON Web Key Set',
      data: z
        .object({
          keys: z.array(
            z.object({
              kty: z.literal('OKP'),
              crv: z.literal('Ed25519'),
              x: z.string().meta({ description: 'The raw public key, base64url' }),
              kid: z.string().meta({ description: 'RFC 7638 thumbprint of the key' }),
              use: z.literal('sig'),
              alg: z.literal('EdDSA'),
            }),
          ),
        })
        .meta({ id: 'Jwks' }),
    },
    413: 'The request carries a body larger than 1 MiB (refused before anything else, as on every route)',
  }),
})
