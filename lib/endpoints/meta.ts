import * as z from 'zod'
import { endpoint } from '#lib/http/endpoint.ts'

/** The API's own description: the OpenAPI document and the docs page rendered from it (CONTRACT section 10). */

export const openapi = endpoint({
  functionId: 'openapi',
  summary: 'This OpenAPI document',
  description:
    'OpenAPI 3.1 for all four areas, generated from the endpoint declarations. `servers` is the URL the document was fetched from.',
  request: {},
  replies: { 200: { description: 'The OpenAPI document', data: z.record(z.string(), z.unknown()) } },
})

export const docs = endpoint({
  functionId: 'docs',
  summary: 'The API reference (HTML)',
  description:
    'A human-readable reference rendered from the OpenAPI document by Redoc, served by the API itself.',
  request: {},
  replies: { 200: { description: 'An HTML page', data: z.string(), mediaType: 'text/html' } },
})

/** The catch-all (`$default`): no route of its own, so never in the document. */
export const unrouted = endpoint({
  functionId: 'unrouted',
  summary: 'Requests no route matches',
  description: '404, or 405 with Allow, in the record of the area the path belongs to.',
  request: {},
  replies: {},
})
