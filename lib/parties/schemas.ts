import * as z from 'zod'
import { TIN_FORMS, TIN_PATTERN } from '#lib/taxpayer/tin.ts'

/**
 * The parties of a business (CONTRACT 17): the authority's CreateParty body, its search query, and
 * the ids an invoice party may name instead of its fields. Every value is bounded here, before it is
 * written or becomes part of a key (CONTRACT 18): a value over its bound is a 400 naming its path.
 */

export const MAX_PARTY_NAME = 200
export const MAX_EMAIL = 254
export const MAX_TELEPHONE = 32
export const MAX_DESCRIPTION = 1000
export const MAX_ADDRESS_FIELD = 200
/** A party's or an address's id: what this service issues (UUIDs), bounded before it is a key. */
export const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/
export const ID_FORM = 'an id this service issued (letters, digits and hyphens, at most 64)'

const bounded = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(max, `${name} must be at most ${max} characters`)

export const PartyId = (name: string) =>
  z.string({ error: `${name} must be a string` }).regex(ID_PATTERN, `${name} must be ${ID_FORM}`)

export const Tin = (name = 'tin') =>
  z
    .string({ error: `${name} must be a string` })
    .max(64, `${name} must be at most 64 characters`)
    .regex(TIN_PATTERN, `${name} must be a TIN of the form ${TIN_FORMS}`)

/**
 * A postal address as a party keeps it: the authority's required four, and `lga`/`state` when known
 * (an invoice on the seed paths still requires them, and checks every value against its list).
 */
export const PostalAddress = z.object({
  street_name: bounded('street_name', MAX_ADDRESS_FIELD),
  city_name: bounded('city_name', MAX_ADDRESS_FIELD),
  postal_zone: z
    .string({ error: 'postal_zone must be a string' })
    .max(20, 'postal_zone must be at most 20 characters'),
  lga: bounded('lga', MAX_ADDRESS_FIELD).optional(),
  state: bounded('state', MAX_ADDRESS_FIELD).optional(),
  country: bounded('country', MAX_ADDRESS_FIELD),
})
export type PostalAddress = z.output<typeof PostalAddress>

/** CreateParty: `postal_address` or `postal_address_id` (an address stored earlier), not both. */
export const CreatePartyRequest = z
  .object({
    business_id: bounded('business_id', 64),
    party_name: bounded('party_name', MAX_PARTY_NAME),
    tin: Tin(),
    email: z
      .string({ error: 'email must be a string' })
      .max(MAX_EMAIL, `email must be at most ${MAX_EMAIL} characters`)
      .regex(/^[^\s@]+@[^\s@]+$/, 'email must be an e-mail address'),
    telephone: z
      .string({ error: 'telephone must be a string' })
      .max(MAX_TELEPHONE, `telephone must be at most ${MAX_TELEPHONE} characters`)
      .regex(/^[+]?[0-9]+$/, 'telephone must be digits, with an optional leading +')
      .optional(),
    business_description: z
      .string({ error: 'business_description must be a string' })
      .max(MAX_DESCRIPTION, `business_description must be at most ${MAX_DESCRIPTION} characters`)
      .optional(),
    postal_address: PostalAddress.optional(),
    postal_address_id: PartyId('postal_address_id').optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.postal_address && !body.postal_address_id)
      ctx.addIssue({
        code: 'custom',
        path: ['postal_address'],
        message: 'postal_address (or the postal_address_id of an address stored earlier) is required',
      })
    if (body.postal_address && body.postal_address_id)
      ctx.addIssue({
        code: 'custom',
        path: ['postal_address_id'],
        message: 'give postal_address or postal_address_id, not both',
      })
  })
export type CreatePartyRequest = z.output<typeof CreatePartyRequest>

export const BusinessPath = z.object({ business_id: bounded('business_id', 64) })

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,12}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))

export const MAX_PARTY_PAGE_SIZE = 100
export const DEFAULT_PARTY_PAGE_SIZE = 50

/** The party search: `party_name` matches a whole name, case and spacing aside; `tin` a whole TIN. */
export const PartySearchQuery = z.object({
  party_name: z.preprocess(blankIsAbsent, bounded('party_name', MAX_PARTY_NAME).optional()),
  tin: z.preprocess(blankIsAbsent, Tin().optional()),
  page: z.preprocess(blankIsAbsent, integer('page', 1, 1_000_000_000).default(1)),
  size: z.preprocess(blankIsAbsent, integer('size', 1, MAX_PARTY_PAGE_SIZE).default(DEFAULT_PARTY_PAGE_SIZE)),
})
export type PartySearchQuery = z.output<typeof PartySearchQuery>

/** A name as the search compares it: lower case, runs of spaces as one (bounded by MAX_PARTY_NAME). */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()

/**
 * Entity: `{id}` is the business id or its TIN; `?reference=` its id, TIN or service id, or empty
 * (the authority's clients send `?reference=` to ask for their own business: CONTRACT 25).
 */
const Reference = (name: string, pattern: RegExp) =>
  z
    .string({ error: `${name} must be a string` })
    .regex(pattern, `${name} must be a business id, a TIN or a service id`)
export const EntityPath = z.object({ id: Reference('id', /^[A-Za-z0-9-]{1,64}$/) })
export const EntityQuery = z.object({
  reference: Reference('reference', /^[A-Za-z0-9-]{0,64}$/).meta({
    description: 'Your business id, TIN or service id; empty for your own business',
  }),
})

export const LookupTinPath = z.object({ tin: Tin() })
export const LookupPartyPath = z.object({ party_id: PartyId('party_id') })
