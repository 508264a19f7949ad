import { describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { endpoints } from '#lib/service/endpoints/index.ts'
import { type Endpoint, forVersion } from '#lib/platform/http/endpoint.ts'
import { buildOpenApiDocument, schemaConverter } from '#lib/service/openapi/document.ts'
import { functionsOf, routes } from '#lib/service/routes.ts'
import { document, validatorFor } from '../../support/contract.ts'

/**
 * One declaration per endpoint (CONTRACT section 10): each function is built from the declaration
 * the document is generated from, so what a handler validates with is what the document publishes.
 */

const doc = buildOpenApiDocument() as any
const toSchema = schemaConverter(new Set(Object.keys(doc.components.schemas)))
const versionOf = (path: string) => /^\/api\/(v[12])\//.exec(path)?.[1] as 'v1' | 'v2' | undefined

describe('endpoint declarations', () => {
  it.each([...functionsOf(routes)].map(([functionId, served]) => [functionId, served] as const))(
    '%s: the function is built from the declaration the document publishes, and validates with its schemas',
    async (functionId, served) => {
      const url = new URL(`../../../${served[0]!.handler}`, import.meta.url).href
      const { handler } = (await import(url)) as { handler: { declaration: Endpoint } }
      expect(handler.declaration.functionId).toBe(functionId)
      expect(handler.declaration.request).toBe(endpoints.get(functionId)!.request)
      const { request } = handler.declaration
      for (const route of served) {
        const operation = doc.paths[route.path][route.method.toLowerCase()]
        const body = operation.requestBody?.content['application/json'].schema
        // A route whose path carries the body (the authority's transmit) documents none.
        const declaredBody =
          request.body && !route.bodyFromPath ? forVersion(request.body, versionOf(route.path)) : undefined
        expect(body, `${route.method} ${route.path} body`).toEqual(
          declaredBody ? toSchema(declaredBody) : undefined,
        )
        const shape = {
          ...(request.query as z.ZodObject | undefined)?.shape,
          ...(request.params as z.ZodObject | undefined)?.shape,
        }
        for (const parameter of operation.parameters?.filter((p: any) => p.in !== 'header') ?? []) {
          expect(parameter.schema, `${route.method} ${route.path} ${parameter.name}`).toEqual(
            toSchema(shape[parameter.name] as z.ZodType),
          )
        }
      }
    },
  )

  it('every operation has a unique operationId, a summary, a description and a typed reply for each status', () => {
    const ids = new Set<string>()
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const where = `${method} ${path}`
        expect(ids.has(operation.operationId), `${where}: operationId ${operation.operationId} repeats`).toBe(
          false,
        )
        ids.add(operation.operationId)
        expect(operation.summary, where).toBeTruthy()
        expect(operation.description, where).toBeTruthy()
        for (const [status, listed] of Object.entries<any>(operation.responses)) {
          // 304 and 204 carry no body by definition (RFC 9110).
          if (status === '304' || status === '204') continue
          const response = listed.$ref ? doc.components.responses[listed.$ref.split('/').pop()] : listed
          expect(response, `${where} ${status}: ${listed.$ref} is in components.responses`).toBeDefined()
          const media = Object.values<any>(response.content ?? {})
          expect(media.length, `${where} ${status} has a schema`).toBeGreaterThan(0)
          for (const { schema } of media) {
            expect(Object.keys(schema).length, `${where} ${status}: not an empty schema`).toBeGreaterThan(0)
          }
        }
      }
    }
  })

  it('titles no two operations alike: the docs page lists them by summary (each path and version its own)', () => {
    const summaries = [doc.paths, doc.webhooks].flatMap((operations) =>
      Object.values<any>(operations).flatMap((methods) =>
        Object.values<any>(methods).map((operation) => operation.summary as string),
      ),
    )
    expect(summaries.filter((summary, i) => summaries.indexOf(summary) !== i)).toEqual([])
  })

  it('writes no description the docs page would take for HTML (`<code>` renders as an empty box)', () => {
    const found: string[] = []
    JSON.stringify(doc, (key, value) => {
      if ((key === 'description' || key === 'summary') && typeof value === 'string') {
        // Markdown: inside backticks (and fenced blocks) `<...>` is text; outside, a tag.
        const prose = value.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '')
        if (/<[A-Za-z/!]/.test(prose)) found.push(value.slice(0, 80))
      }
      return value
    })
    expect(found).toEqual([])
  })

  it("shows an integer by its own bounds, never z.int()'s safe-integer range; `code` by its real values", () => {
    expect(JSON.stringify(doc)).not.toContain('9007199254740991')
    const success = doc.paths['/api/v1/si/validate'].post.responses['200'].content['application/json'].schema
    expect(JSON.stringify(success)).toContain('"code":{"type":"number","const":200')
  })

  it('gives every request body an example, and every example validates against its schema', () => {
    let checked = 0
    for (const [path, methods] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const body = operation.requestBody?.content['application/json']
        if (body) {
          // One example, or named ones (the sandbox's magic values): every one validates.
          const named = Object.entries<any>(body.examples ?? {}).map(([name, e]) => [name, e.value])
          const all = body.example === undefined ? named : [['example', body.example], ...named]
          expect(all.length, `${method} ${path}: request example`).toBeGreaterThan(0)
          const validate = validatorFor(body.schema)
          for (const [name, value] of all) {
            expect(validate(value), `${method} ${path} ${name}: ${JSON.stringify(validate.errors)}`).toBe(
              true,
            )
            checked++
          }
        }
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const media = response.content?.['application/json']
          if (media?.example === undefined) continue
          const validate = validatorFor(media.schema)
          expect(
            validate(media.example),
            `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`,
          ).toBe(true)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(30)
  })

  it('describes every field of the invoice records from the spec', () => {
    const invoiceParts = [
      'ValidateInvoiceRequest',
      'ValidateInvoiceRequestV2',
      'Party',
      'PartyV2',
      'TaxRepresentativeParty',
      'PostalAddress',
      'PostalAddressV2',
      'InvoiceLine',
      'InvoiceLineV2',
      'Item',
      'Price',
      'DocumentRef',
      'PaymentMeans',
      'AllowanceCharge',
      'TaxTotal',
      'TaxSubtotal',
      'TaxCategory',
      'LegalMonetaryTotal',
      'LocalTime',
    ]
    const missing: string[] = []
    for (const name of invoiceParts) {
      for (const [field, schema] of Object.entries<any>(doc.components.schemas[name].properties)) {
        if (!schema.description) missing.push(`${name}.${field}`)
      }
    }
    expect(missing).toEqual([])
  })
})
