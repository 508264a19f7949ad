import * as z from 'zod'
import {
  IssueKeyRequest,
  KeyPath,
  MAX_OVERLAP_SECONDS,
  RollKeyRequest,
} from '#lib/registry/api-key-schemas.ts'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import { BUSINESS_ADMIN, reads, writes } from './common.ts'

/**
 * Self-service API keys (CONTRACT section 15; docs/authentication.md in prose): a business's ADMIN key
 * manages the business's Area A keys. In the events stack, beside the other ADMIN endpoints (webhook
 * subscriptions), which has the room (infra/stacks/areas.ts).
 */

const apiKeys = /* @__PURE__ */ endpointsOf({ domain: 'api-keys', ...BUSINESS_ADMIN })

export const keyIssue = /* @__PURE__ */ apiKeys({
  functionId: 'api-key-issue',
  routes: [{ method: 'POST', path: '/keys' }],
  // The business must exist; the key's secret is sealed by the function that issues it. The issuer's
  // record (its rate limit) and the business's count of active keys are under APIKEY#; the count's
  // first use lists the business's keys on gsi1 (lib/platform/auth/key-count.ts).
  access: {
    table: [reads(['BUSINESS#'], ['gsi1']), writes(['APIKEY#', 'AUDIT#'])],
    encrypt: ['api-client'],
  },
  // Its 201 shows the secret once: a retry's stored reply is kept sealed.
  sealedReply: true,
  request: { body: IssueKeyRequest },
})
export const keyList = /* @__PURE__ */ apiKeys({
  functionId: 'api-key-list',
  routes: [{ method: 'GET', path: '/keys' }],
  // The business's keys, listed on gsi1 (lib/platform/db/keys.ts apiClientByBusiness), then read
  // (APIKEY#): the listing shows roles and secrets' overlap, which the index does not hold.
  access: { table: [reads(['BUSINESS#', 'APIKEY#'], ['gsi1'])] },
  request: {},
})
export const keyRoll = /* @__PURE__ */ apiKeys({
  functionId: 'api-key-roll',
  routes: [{ method: 'POST', path: '/keys/{key}/roll' }],
  access: { table: [writes(['APIKEY#', 'AUDIT#'])], encrypt: ['api-client'] },
  sealedReply: true,
  request: { body: RollKeyRequest, params: KeyPath },
})
export const keyRevoke = /* @__PURE__ */ apiKeys({
  functionId: 'api-key-revoke',
  routes: [{ method: 'DELETE', path: '/keys/{key}' }],
  access: { table: [writes(['APIKEY#', 'AUDIT#'])] },
  request: { params: KeyPath },
})

const Mode = () => z.enum(['live', 'test'])
const Key = /* @__PURE__ */ lazy(() =>
  z.object({
    key: z.string(),
    roles: z.array(z.enum(['SI', 'APP', 'ADMIN'])),
    mode: Mode(),
    active: z.boolean().meta({ description: 'false once revoked' }),
    created_at: z.string(),
    old_secret_valid_until: z.string().nullable().meta({
      description:
        "While a roll's overlap runs: when the secrets it replaced stop working (ISO 8601); else null",
    }),
  }),
)
const NOT_ADMIN = 'The API key lacks the ADMIN role'
const UNKNOWN_KEY =
  'Your business has no API key by this name (a test-mode key sees no live key): nothing is revealed about other businesses'
const KEY_ID = 'ak_3vGk0yJ5ZKx1mWcQd8Rr2TnYbPfLh6Ue'

export const keyIssueDocs = (): EndpointDocs => ({
  summary: 'Issue an API key (ADMIN)',
  description:
    "A new key of the caller's business with one role, in `mode` (absent: the calling key's own). The reply holds the secret this once; it is stored sealed. A live ADMIN key issues live or test keys; a test-mode ADMIN key issues test keys only (403 otherwise). The key works at once. It takes the calling key's own rate limit, if it has one, and shares the business's quota with every other key of its mode. A business has at most 20 active keys per mode: a 21st is refused (409 `TOO_MANY_KEYS`) until one is revoked.",
  example: { role: 'SI', mode: 'test' },
  replies: () => ({
    201: {
      description: 'Issued; the secret is shown this once',
      data: z.object({
        key: z.string().meta({ description: '`ak_` (live) or `ak_test_` (test), then Base64url' }),
        secret: z.string(),
        role: z.enum(['SI', 'APP', 'ADMIN']),
        mode: Mode(),
        created_at: z.string(),
      }),
    },
    403: `${NOT_ADMIN}, or a test-mode key asked for a live key`,
    409: 'The business already has 20 active keys of that mode (TOO_MANY_KEYS): revoke one first',
  }),
})

export const keyListDocs = (): EndpointDocs => ({
  summary: "The business's API keys (ADMIN)",
  description:
    'Every key of the business, revoked ones included, oldest first, never a secret. A test-mode ADMIN key lists the test keys only.',
  replies: () => ({
    200: { description: 'The keys', data: z.array(Key()) },
    403: NOT_ADMIN,
  }),
})

export const keyRollDocs = (): EndpointDocs => ({
  summary: "Roll a key's secret (ADMIN)",
  description: `A new secret for the key, shown this once. The secrets it had stay valid for \`overlap_seconds\` more (0 to ${MAX_OVERLAP_SECONDS}, 7 days; 0 refuses them at once), so clients switch without downtime. Rolling again during an overlap ends the earlier one's secret at once: a key holds at most two secrets.`,
  example: { overlap_seconds: 86400 },
  replies: () => ({
    201: {
      description: 'Rolled; the new secret is shown this once',
      data: z.object({
        key: z.string().meta({ examples: [KEY_ID] }),
        secret: z.string(),
        roles: z.array(z.enum(['SI', 'APP', 'ADMIN'])),
        mode: Mode(),
        rolled_at: z.string(),
        old_secret_valid_until: z
          .string()
          .nullable()
          .meta({ description: 'When the previous secret stops working; null with overlap_seconds 0' }),
      }),
    },
    403: NOT_ADMIN,
    404: UNKNOWN_KEY,
    409: 'The key is revoked, or its secrets changed during the roll (try again)',
  }),
})

export const keyRevokeDocs = (): EndpointDocs => ({
  summary: 'Revoke a key (ADMIN)',
  description:
    'Requests signed with the key are refused from now on (401): at once by the container that revoked it, within 5 s everywhere. The key no longer counts towards the 20 active keys of its mode. A roll racing the revocation is refused (409), never answered with a secret. Revoking a revoked key changes nothing. An ADMIN key may revoke itself.',
  replies: () => ({
    204: { description: 'Revoked', empty: true },
    403: NOT_ADMIN,
    404: UNKNOWN_KEY,
  }),
})
