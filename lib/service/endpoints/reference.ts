import * as z from 'zod'
import { type Endpoint, type EndpointDocs, endpoint, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { REFERENCE_LISTS, type ReferenceListName } from '#lib/reference/lists.ts'
import { ANY, reads, SI } from './common.ts'

/** The reference lists (A.8) and the public keys (CONTRACT sections 4 and 5). */

const reference = /* @__PURE__ */ endpointsOf({
  domain: 'reference',
  stack: 'reference',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
  roles: ANY,
})

/**
 * The authority's names for the lists it names otherwise (its paths under /api/v1/invoice/resources).
 * Its clients ask for the product codes as `product-codes`, its documentation as `hs-codes`: both
 * are served (CONTRACT 25).
 */
const AUTHORITY_LIST_NAMES: Partial<Record<ReferenceListName, readonly string[]>> = {
  'service-codes': ['services-codes'],
  'product-codes': ['hs-codes', 'product-codes'],
}

/** A list's endpoint: no request schema (a GET with no parameters); it reads its own list only. */
const listEndpoint = (list: ReferenceListName) =>
  reference({
    functionId: `resource-${list}`,
    routes: [
      // The SI invoice-types list is the same list: one function serves both paths.
      ...(list === 'invoice-types' ? [{ method: 'GET', path: '/si/invoice-types', roles: SI } as const] : []),
      { method: 'GET', path: `/resource/${list}` },
      ...(AUTHORITY_LIST_NAMES[list] ?? [list]).map(
        (name) =>
          ({ method: 'GET', path: `/api/v1/invoice/resources/${name}`, profile: 'authority' }) as const,
      ),
    ],
    access: { table: [reads([`REF#${list}`])] },
    request: {},
  })

/** Each list's endpoint, by list name. */
export const referenceLists = /* @__PURE__ */ Object.fromEntries(
  REFERENCE_LISTS.map((list) => [list, listEndpoint(list)]),
) as Record<ReferenceListName, Endpoint<z.ZodType, z.ZodType, z.ZodType, 'api-signature'>>

/**
 * The JWKS: public by design. It lists every key that has signed invoices, which the signer records
 * in one partition: that partition is all of the table it may read.
 */
/**
 * The JWKS is public, so no credential says which mode's keys the caller wants: `?mode=test` asks
 * for the sandbox's keys (CONTRACT 18), anything else is live.
 */
const PublicKeysQuery = z.object({
  mode: z
    .enum(['live', 'test'], { error: 'mode must be "live" or "test" (or absent, for live)' })
    .default('live')
    .meta({
      description:
        'Which keys: `live` (default) verifies live invoices, `test` verifies invoices signed with a sandbox (test-mode) key. A test-mode signature never verifies with a live key, nor the reverse.',
    }),
})

export const publicKeys = /* @__PURE__ */ endpoint({
  functionId: 'resource-public-keys',
  domain: 'reference',
  stack: 'reference',
  area: 'A',
  auth: 'none',
  roles: ANY,
  reply: 'record',
  versions: ['v1'],
  routes: [{ method: 'GET', path: '/resource/public-keys' }],
  // The live partition's name is the prefix of the test one's (lib/platform/db/keys.ts): one grant reads both.
  access: { table: [{ actions: ['Query'], keys: [keys.signingKeys()] }] },
  request: { query: PublicKeysQuery },
})

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
    'Ed25519 keys (RFC 8037); kid is the RFC 7638 thumbprint. The current key of the mode asked for is listed from the deployment\'s start, and every key that has signed stays listed. Live and test mode have keys of their own: `?mode=test` lists the keys of test-mode (sandbox) invoices, whose canonical JSON carries `"mode": "test"`. Public, so anyone holding a signed invoice can verify it.',
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
    400: 'mode is neither `live` nor `test`',
    413: 'The request carries a body larger than 1 MiB (refused before anything else, as on every route)',
  }),
})
