import * as z from 'zod'
import {
  PARTY_COUNTER_PREFIX,
  PARTY_LIST_PREFIX,
  PARTY_PREFIX,
  POSTAL_ADDRESS_PREFIX,
} from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import {
  BusinessPath,
  CreatePartyRequest,
  EntityPath,
  EntityQuery,
  LookupPartyPath,
  LookupTinPath,
  PartySearchQuery,
} from '#lib/parties/schemas.ts'
import { ANY, INVALID_BODY, IsoDateTime, NumberedPage, reads, writes } from './common.ts'

/**
 * The authority's routes the seed lacks (CONTRACT 17): a business's parties, its entity, and the
 * lookups by TIN and by party. Authority paths only, whole; Area A signatures, any Area A role.
 */

const parties = /* @__PURE__ */ endpointsOf({
  domain: 'parties',
  stack: 'exchange',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1'],
})

export const partyCreate = /* @__PURE__ */ parties({
  functionId: 'invoice-party-create',
  routes: [{ method: 'POST', path: '/api/v1/invoice/party', profile: 'authority' }],
  roles: ANY,
  // The party (PARTY#), its address (PADDR#, or one read by postal_address_id), its numbers
  // (PARTYSEQ#) and its list item (PARTYLIST#, its filter spaces on gsi1-3).
  access: {
    table: [writes([PARTY_PREFIX, POSTAL_ADDRESS_PREFIX, PARTY_COUNTER_PREFIX, PARTY_LIST_PREFIX])],
  },
  request: { body: CreatePartyRequest },
})

export const partySearch = /* @__PURE__ */ parties({
  functionId: 'invoice-party-search',
  routes: [{ method: 'GET', path: '/api/v1/invoice/party/{business_id}', profile: 'authority' }],
  roles: ANY,
  access: { table: [reads([PARTY_COUNTER_PREFIX, PARTY_LIST_PREFIX], ['gsi1', 'gsi2', 'gsi3'])] },
  request: { params: BusinessPath, query: PartySearchQuery },
})

export const entity = /* @__PURE__ */ parties({
  functionId: 'entity-read',
  routes: [
    { method: 'GET', path: '/api/v1/entity/{id}', profile: 'authority' },
    { method: 'GET', path: '/api/v1/entity', profile: 'authority' },
  ],
  roles: ANY,
  // The business, and its API clients (gsi1, BUSINESS#<id>#CLIENTS) for whether it has a system.
  access: { table: [reads(['BUSINESS#'], ['gsi1'])] },
  request: { params: EntityPath.partial(), query: EntityQuery.partial() },
})

/** A lookup reads the business by TIN and its clients, as transmit finds the buyer's system. */
const findsSystems = ['BUSINESS#', 'TIN#'] as const

export const lookupTin = /* @__PURE__ */ parties({
  functionId: 'transmit-lookup-tin',
  routes: [{ method: 'GET', path: '/api/v1/invoice/transmit/lookup/tin/{tin}', profile: 'authority' }],
  roles: ANY,
  // Also the caller's own parties with that TIN (PARTYLIST#, the TIN's list on gsi1).
  access: { table: [reads([...findsSystems, PARTY_LIST_PREFIX], ['gsi1'])] },
  request: { params: LookupTinPath },
})

export const lookupParty = /* @__PURE__ */ parties({
  functionId: 'transmit-lookup-party',
  routes: [{ method: 'GET', path: '/api/v1/invoice/transmit/lookup/party/{party_id}', profile: 'authority' }],
  roles: ANY,
  access: { table: [reads([...findsSystems, PARTY_PREFIX], ['gsi1'])] },
  request: { params: LookupPartyPath },
})

const NOT_YOUR_BUSINESS =
  "business_id is not the caller's business: nothing is revealed about other businesses"

const Address = /* @__PURE__ */ lazy(() =>
  z
    .object({
      street_name: z.string(),
      city_name: z.string(),
      postal_zone: z.string(),
      lga: z.string().optional(),
      state: z.string().optional(),
      country: z.string(),
    })
    .meta({ id: 'StoredPostalAddress', description: 'A postal address as a party keeps it' }),
)

const Party = /* @__PURE__ */ lazy(() =>
  z
    .object({
      id: z.string().meta({ description: 'The party id an invoice party may give instead of its fields' }),
      business_id: z.string(),
      party_name: z.string(),
      tin: z.string(),
      email: z.string(),
      telephone: z.string().optional(),
      business_description: z.string().optional(),
      postal_address_id: z.string().meta({
        description: 'The id an invoice party or a later party may give instead of postal_address',
      }),
      postal_address: Address(),
      created_at: IsoDateTime(),
    })
    .meta({ id: 'BusinessParty' }),
)

export const EXAMPLE_BUSINESS_ID = '11111111-1111-4111-8111-111111111111'

export const partyCreateDocs = (): EndpointDocs => ({
  summary: 'Create a party of your business',
  description:
    "Stores a party your invoices can name by `id` (and its address by `postal_address_id`) instead of its fields, on any validate or sign path: the stored invoice holds the party's values, and the fields an invoice party gives itself are kept. `business_id` must be your own business (else 404). Give `postal_address` (`street_name`, `city_name`, `postal_zone`, `country`; `lga` and `state` when known: the seed paths require them on an invoice) or the `postal_address_id` of an address stored with an earlier party; an unknown one is 400 at `postal_address_id`. TINs take every form verify-tin takes (the 13-digit Tax ID included). Test-mode parties are the sandbox's only.",
  example: {
    business_id: EXAMPLE_BUSINESS_ID,
    party_name: 'Dangote Group TMZ',
    postal_address_id: '940848d6-6c9d-44cc-851c-d1c69edcec95',
    tin: 'TIN-000001',
    email: 'business@email.com',
    telephone: '+23480254000000',
    business_description: 'this entity is into sales of Cement and building materials',
  },
  examples: {
    inlineAddress: {
      summary: 'With its postal address given inline (stored with its own postal_address_id)',
      value: {
        business_id: EXAMPLE_BUSINESS_ID,
        party_name: 'Dangote Group TMZ',
        tin: '3047291850016',
        email: 'business@email.com',
        postal_address: {
          street_name: '32, owonikoko street',
          city_name: 'Gwarikpa',
          postal_zone: '023401',
          lga: 'NG-FC-AMA',
          state: 'NG-FC',
          country: 'NG',
        },
      },
    },
  },
  replies: () => ({
    201: { description: 'Created: its `id` and `postal_address_id`, and the party as stored', data: Party() },
    400: `${INVALID_BODY}; an unknown postal_address_id is NG-PT-01 at postal_address_id`,
    404: NOT_YOUR_BUSINESS,
  }),
})

export const partySearchDocs = (): EndpointDocs => ({
  summary: "Search your business's parties",
  description:
    "The business's parties, newest first, paged like the supplier search: `page` counts from 1 in the request and `data.page.number` from 0 in the reply; `size` 1-100 (default 50). `party_name` matches a whole name, case and spacing aside; `tin` a whole TIN; both together, parties with both. A page reads at most `size` + 1 items whatever the number of parties. Another business's id: 404.",
  replies: () => ({
    200: {
      description: 'One page of parties',
      data: z.object({ content: z.array(Party()), page: NumberedPage() }),
    },
    400: 'A query parameter is invalid (its path says which)',
    404: NOT_YOUR_BUSINESS,
  }),
})

export const entityDocs = (): EndpointDocs => ({
  summary: 'Your business, as the authority calls it the entity',
  description:
    "`GET /api/v1/entity/{id}` with your business id or TIN, or `GET /api/v1/entity?reference=` with your business id, TIN or service id (or an empty `reference`, as the authority's clients send it): your business's name, TIN, service id and whether it is exchange-ready (a system configured: an active API client of this mode with a webhook URL). Any other id or reference is 404, whether or not it names another business.",
  replies: () => ({
    200: {
      description: 'Your business',
      data: z.object({
        id: z.string().meta({ description: 'The business id' }),
        name: z.string(),
        tin: z.string(),
        service_id: z.string(),
        email: z.string().optional(),
        exchange_ready: z.boolean().meta({
          description: 'A system is configured in this mode, so invoices to this business can be transmitted',
        }),
      }),
    },
    400: 'The id or reference is missing or not of the form of an id, TIN or service id',
    404: 'Not your business',
  }),
})

const LookupReply = /* @__PURE__ */ lazy(() =>
  z
    .object({
      tin: z.string(),
      party_name: z.string(),
      exchange_ready: z.boolean().meta({
        description:
          'Invoices to this party can be transmitted: a business registered here with a system configured in this mode. Never its URL.',
      }),
    })
    .meta({ id: 'ExchangeLookup' }),
)

export const lookupTinDocs = (): EndpointDocs => ({
  summary: 'Look a TIN up: can invoices to it be transmitted?',
  description:
    "A TIN of a business registered here: its name and whether it has a system configured (never the system's URL, and no probe). A TIN that is no business here but one of your parties': that party's name with `exchange_ready: false`. Any other TIN: 404. In test mode the magic buyers answer as their transmit does: `00000000-0101` ready, `00000000-0102` not.",
  replies: () => ({
    200: { description: "The TIN's exchange readiness", data: LookupReply() },
    400: 'The TIN is not of an accepted form',
    404: 'No business is registered with this TIN and none of your parties has it',
  }),
})

export const lookupPartyDocs = (): EndpointDocs => ({
  summary: 'Look a party up: can invoices to it be transmitted?',
  description:
    "A party of your business, by its id: its TIN and name, and whether that TIN is a business registered here with a system configured. Another business's party, or an unknown id: 404.",
  replies: () => ({
    200: { description: "The party's exchange readiness", data: LookupReply() },
    400: 'The party id is not of the form this service issues',
    404: 'No party of your business has this id',
  }),
})
