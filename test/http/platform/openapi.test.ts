import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '#lib/service/openapi/document.ts'
import { renderClientTypes, renderOpenApiDocument } from '#lib/service/openapi/generate.ts'
import { routes } from '#lib/service/routes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { checkReply } from '../../support/contract.ts'

const committed = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')

describe('openapi.json', () => {
  it('is exactly what the code generates (run `npm run openapi` and commit openapi.json if not)', () => {
    const generated = renderOpenApiDocument()
    expect(
      committed === generated,
      'openapi.json is out of date: run `npm run openapi` and commit openapi.json',
    ).toBe(true)
  })

  it('types the client: client/api-types.ts is what openapi-typescript makes of it (run `npm run openapi` if not)', async () => {
    const types = readFileSync(new URL('../../../client/api-types.ts', import.meta.url), 'utf8')
    expect(types === (await renderClientTypes(JSON.parse(committed))), 'client/api-types.ts is stale').toBe(
      true,
    )
  })

  it("is OpenAPI 3.1, versioned as the package, and names the interface's version 3.1.0", () => {
    const doc = buildOpenApiDocument()
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version } })
    expect((doc as { info: { description: string } }).info.description).toContain('interface 3.1.0')
  })

  it('documents every route of the route table, with the security of its area', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { security: unknown[] }>> }
    const schemes = {
      'api-signature': 'apiSignature',
      'switch-signature': 'switchSignature',
      'merchant-bearer': 'merchantBearer',
      'admin-bearer': 'adminBearer',
    }
    for (const route of routes) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()]
      expect(operation, `${route.method} ${route.path}`).toBeDefined()
      if (route.auth === 'none') expect(operation!.security).toEqual([])
      else expect(Object.keys(operation!.security[0] as object)).toContain(schemes[route.auth])
    }
  })

  it('gives the sign endpoints their own invoice schema per version, and their error record', () => {
    const doc = buildOpenApiDocument() as any
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema
    expect(body('/api/v1/app/invoice/sign')).toEqual({ $ref: '#/components/schemas/ValidateInvoiceRequest' })
    expect(body('/api/v2/app/invoice/sign')).toEqual({
      $ref: '#/components/schemas/ValidateInvoiceRequestV2',
    })
    expect(body('/api/v2/si/validate')).toEqual({ $ref: '#/components/schemas/ValidateInvoiceRequest' })
    expect(
      doc.paths['/api/v1/app/invoice/sign'].post.responses['409'].content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/FirsErrorWithCode',
    })
    expect(doc.components.schemas.ValidateInvoiceRequestV2.required).toContain('invoice_kind')
    expect(doc.components.schemas.ValidateInvoiceRequest.required).not.toContain('invoice_kind')
    expect(doc.components.schemas.PostalAddressV2.properties.postal_zone).toEqual({
      type: 'string',
      maxLength: 20,
      description: 'postal code; in v2 length 0 to 20',
    })
  })

  it('resolves every $ref to a component', () => {
    const doc = buildOpenApiDocument() as any
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of new Set(refs)) {
      // "#/components/<kind>/<name>": schemas, responses or headers.
      const [, , kind, name] = ref.slice('"$ref":"'.length, -1).split('/')
      expect(doc.components[kind!]?.[name!], ref).toBeDefined()
    }
  })
})

describe('GET /api/openapi.json', () => {
  let api: TestApi
  let clients: DevClients
  beforeAll(async () => {
    api = await startApi()
    clients = devClients(api.url)
  })
  afterAll(() => api?.close())

  it('serves the committed document without credentials, its servers the URL it was fetched from', async () => {
    const reply = await clients.anonymous.get('/api/openapi.json')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('application/json')
    const origin = new URL(api.url).origin
    expect(reply.body).toEqual({
      ...JSON.parse(committed),
      servers: [{ url: origin, description: 'The deployment that served this document' }],
    })
  })

  it('names https and the forwarded host behind API Gateway', async () => {
    const reply = await clients.anonymous.get('/api/openapi.json', {
      'x-forwarded-proto': 'https',
    })
    expect((reply.body as { servers: { url: string }[] }).servers[0]!.url).toBe(
      `https://${new URL(api.url).host}`,
    )
  })

  // The size check runs on every route before anything else (lib/platform/http/factory.ts), GET included:
  // the one refusal these operations can give besides the catch-all's 404/405.
  it.each(['/api/openapi.json', '/api/docs', '/api/v1/resource/public-keys'])(
    'GET %s with a body over 1 MiB is 413, a reply the document lists',
    async (path) => {
      const reply = await getWithBody(`${api.url}${path}`, `{"pad":"${'x'.repeat(1024 * 1024)}"}`)
      expect(reply.status).toBe(413)
      expect(reply.text).toMatch(/larger than the limit/)
      checkReply('GET', `${api.url}${path}`, reply)
    },
  )
})

/** A GET with a body (fetch refuses to send one), the reply as the contract checker takes it. */
function getWithBody(url: string, body: string) {
  return new Promise<{ status: number; headers: Headers; body: unknown; text: string }>((resolve, reject) => {
    // Node frames a GET's body only when told its length.
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
    const req = request(url, { method: 'GET', headers })
    req.on('error', reject)
    req.on('response', (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value)
        resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(text), text })
      })
    })
    req.end(body)
  })
}
