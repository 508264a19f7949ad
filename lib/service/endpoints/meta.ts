import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { PUBLISHED_DOCUMENT_FILE } from '#lib/service/docs/published-document.ts'

/** The API's own description: the OpenAPI document and the docs page rendered from it (CONTRACT section 10). */

const meta = /* @__PURE__ */ endpointsOf({
  domain: 'meta',
  // What integrators read before they call, beside the reference lists.
  stack: 'reference',
  area: 'A',
  auth: 'none',
  reply: 'record',
})

// None of them reads or writes anything stored: the document is a file beside them, the page rendered from it.
export const openapi = /* @__PURE__ */ meta({
  functionId: 'openapi',
  routes: [{ method: 'GET', path: '/api/openapi.json' }],
  access: {},
  files: [PUBLISHED_DOCUMENT_FILE],
  request: {},
})
export const docs = /* @__PURE__ */ meta({
  functionId: 'docs',
  routes: [{ method: 'GET', path: '/api/docs' }],
  access: {},
  // Redoc's 0.9 MB renderer and the document itself, beside the bundle (lib/service/docs/published-document.ts).
  files: ['redoc/bundles/redoc.standalone.js', PUBLISHED_DOCUMENT_FILE],
  request: {},
})
/** The catch-all (`$default`): no route of its own, so never in the document. */
export const unrouted = /* @__PURE__ */ meta({
  functionId: 'unrouted',
  stack: 'edge',
  routes: [],
  access: {},
  request: {},
})

export const openapiDocs = (): EndpointDocs => ({
  summary: 'This OpenAPI document',
  description:
    'OpenAPI 3.1 for all four areas, generated from the endpoint declarations. `servers` is the URL the document was fetched from.',
  replies: () => ({
    200: { description: 'The OpenAPI document', data: z.record(z.string(), z.unknown()) },
    413: 'The request carries a body larger than 1 MiB (refused before anything else, as on every route)',
  }),
})

export const docsDocs = (): EndpointDocs => ({
  summary: 'The API reference (HTML)',
  description:
    'A human-readable reference rendered from the OpenAPI document by Redoc, served by the API itself: nothing is fetched from elsewhere.',
  replies: () => ({
    200: { description: 'An HTML page', data: z.string(), mediaType: 'text/html' },
    413: 'The request carries a body larger than 1 MiB (refused before anything else, as on every route)',
  }),
})
