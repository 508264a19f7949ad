import * as z from 'zod'
import { envelopeOf, FailedEnvelope, FirsErrorDetails } from '#lib/invoice/api-records.ts'
import { type Area, type AuthScheme, type Route, routes as routeTable } from '#lib/routes.ts'
import {
  BankRecord,
  GenericObject,
  merchantEnvelopeOf,
  NotificationError,
  notificationReplyOf,
  ResponseCodeError,
} from './area-records.ts'
import { componentSchemas, type OperationSpec, operations, type Versioned } from './registry.ts'

/**
 * The OpenAPI 3.1 document, generated from the route table (every route, its security and its area's
 * reply and error records) and the zod schemas of the registry. Deterministic: the same code gives
 * the same bytes, which is what lets a test hold the committed openapi.json to it.
 */

type Json = Record<string, unknown>

const COMPONENT_REF = '#/components/schemas/'

/**
 * The components, converted once per document: each named schema becomes a `$ref` wherever used.
 * The ids go into zod's global registry, which also holds the `.meta()` descriptions the schemas
 * carry; only this generator reads it.
 */
function convertComponents(components: Record<string, z.ZodType>) {
  for (const [id, schema] of Object.entries(components)) {
    const existing = z.globalRegistry.get(schema)
    if (existing?.id !== id) z.globalRegistry.add(schema, { ...existing, id })
  }
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_REF}${id}`,
  }) as { schemas: Record<string, Json> }
  const out: Record<string, Json> = {}
  for (const id of Object.keys(components).sort()) {
    const { $schema: _s, $id: _i, ...rest } = schemas[id]!
    out[id] = rest
  }
  return out
}

/** Rewrites `#/$defs/X` to the component X: every $def is a registered component by construction. */
function toComponentRefs(value: unknown, known: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => toComponentRefs(v, known))
  if (typeof value !== 'object' || value === null) return value
  const out: Json = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === '$defs' || key === '$schema') continue
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
      const id = v.slice('#/$defs/'.length)
      if (!known.has(id)) throw new Error(`OpenAPI: ${id} is referenced but is not a registered component`)
      out[key] = `${COMPONENT_REF}${id}`
    } else {
      out[key] = toComponentRefs(v, known)
    }
  }
  return out
}

const versionOf = (route: Route) => /^\/api\/(v[12])\//.exec(route.path)?.[1] as 'v1' | 'v2' | undefined

function pick<T>(value: Versioned<T> | undefined, version: 'v1' | 'v2' | undefined): T | undefined {
  if (value && typeof value === 'object' && 'v1' in value && 'v2' in value) return value[version ?? 'v1']
  return value as T | undefined
}

const AREA_TAGS: Record<Area, string> = {
  A: 'A: e-invoicing',
  B: 'B: bank transactions',
  C: 'C: merchant transactions',
  D: 'D: notification administration',
}

const SECURITY: Record<AuthScheme, Json[]> = {
  'api-signature': [{ apiKey: [], apiSignature: [], apiTimestamp: [] }],
  'switch-signature': [{ switchBearer: [], switchSignature: [], switchTimestamp: [], switchNonce: [] }],
  'merchant-bearer': [{ merchantBearer: [], merchantId: [] }],
  'admin-bearer': [{ adminBearer: [] }],
  none: [],
}

const header = (name: string, description: string): Json => ({
  type: 'apiKey',
  in: 'header',
  name,
  description,
})

const SECURITY_SCHEMES: Json = {
  apiKey: header('x-api-key', 'Area A: the API key issued to the client (CONTRACT section 2).'),
  apiSignature: header(
    'x-api-signature',
    'Area A: Base64(HMAC-SHA256(api_secret, METHOD \\n PATH \\n x-api-timestamp \\n hex(SHA-256(body)))). Sent together with x-api-key and x-api-timestamp.',
  ),
  apiTimestamp: header(
    'x-api-timestamp',
    'Area A: RFC 3339 time of the request; refused beyond 5 minutes either side.',
  ),
  switchBearer: { type: 'http', scheme: 'bearer', description: "Area B: the switch's access token." },
  switchSignature: header(
    'X-Signature',
    'Area B: Base64(HMAC-SHA256(secret, METHOD \\n PATH \\n X-Timestamp \\n X-Nonce \\n hex(SHA-256(body)))), 44 characters (CONTRACT section 6).',
  ),
  switchTimestamp: header('X-Timestamp', 'Area B: UTC time YYYY-MM-DDTHH:MM:SS[.fff]Z; 300 s tolerance.'),
  switchNonce: header('X-Nonce', 'Area B: 16 to 64 characters of [A-Za-z0-9_-], accepted once.'),
  merchantBearer: { type: 'http', scheme: 'bearer', description: "Area C: the merchant's access token." },
  merchantId: header('x-Merchant-Id', 'Area C: must be the merchant the token was issued to.'),
  adminBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'Area D: the notification administration key.',
  },
}

const STATUS_TEXT: Record<number, string> = {
  200: 'Success',
  201: 'Created',
  304: 'Not modified: the If-None-Match ETag is current',
  400: 'The request is invalid: every problem is listed',
  401: 'Authentication failed: the message names the reason',
  403: 'The client is not allowed this endpoint',
  404: "Not found (including a business or invoice that is not the caller's)",
  409: 'A state conflict (e.g. an IRN signed with different content)',
  413: 'The body is too large',
  503: 'A dependency is unavailable: retry shortly',
}

function errorStatuses(route: Route): number[] {
  const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)
  const codes = route.auth === 'none' ? [] : [400, 401]
  if (route.area === 'A' && route.auth !== 'none') codes.push(403)
  if (route.area === 'C') codes.push(403)
  if (route.auth !== 'none') codes.push(404)
  if (route.tableAccess === 'write') codes.push(409)
  if (hasBody) codes.push(413)
  codes.push(503)
  return [...new Set(codes)].sort((a, b) => a - b)
}

function errorRecord(route: Route): z.ZodType {
  switch (route.area) {
    case 'A':
      return route.reply === 'envelope' ? FailedEnvelope : FirsErrorDetails
    case 'B':
    case 'C':
      return ResponseCodeError
    case 'D':
      return NotificationError
  }
}

function successRecord(route: Route, data: z.ZodType | undefined): z.ZodType {
  switch (route.reply) {
    case 'record':
      return data ?? GenericObject
    case 'envelope':
      return envelopeOf(data ?? GenericObject)
    case 'bank':
      return data ?? BankRecord
    case 'merchant':
      return merchantEnvelopeOf(data ?? GenericObject)
    case 'notification':
      return notificationReplyOf(data ?? GenericObject)
  }
}

export function buildOpenApiDocument(table: readonly Route[] = routeTable): Json {
  const schemas = convertComponents(componentSchemas())
  const known = new Set(Object.keys(schemas))
  const toSchema = (schema: z.ZodType): unknown =>
    toComponentRefs(
      z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      known,
    )
  const content = (schema: z.ZodType) => ({ 'application/json': { schema: toSchema(schema) } })

  const paths: Record<string, Json> = {}
  for (const route of table) {
    const version = versionOf(route)
    const spec: OperationSpec | undefined = operations[route.functionId]
    const parameters: Json[] = []
    for (const name of route.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
      const schema = spec?.params?.shape[name] as z.ZodType | undefined
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: schema ? toSchema(schema) : { type: 'string' },
      })
    }
    for (const [name, schema] of Object.entries(spec?.query?.shape ?? {})) {
      const optional = (schema as z.ZodType).safeParse(undefined).success
      parameters.push({ name, in: 'query', required: !optional, schema: toSchema(schema as z.ZodType) })
    }
    for (const h of spec?.headers ?? []) {
      parameters.push({
        name: h.name,
        in: 'header',
        required: h.required ?? false,
        description: h.description,
        schema: toSchema(h.schema),
      })
    }
    const writes =
      ['POST', 'PATCH'].includes(route.method) && route.tableAccess === 'write' && route.auth !== 'none'
    if (writes) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'A retry with the same key (1 to 128 visible ASCII characters) gets the first reply back.',
        schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$' },
      })
    }

    const success = spec?.successStatus ?? (route.area === 'D' && route.method === 'POST' ? 201 : 200)
    const responses: Json = {
      [success]: {
        description: STATUS_TEXT[success],
        content: content(successRecord(route, pick(spec?.response, version))),
      },
    }
    if (route.functionId.startsWith('resource-') && route.method === 'GET' && route.reply === 'envelope') {
      responses['304'] = { description: STATUS_TEXT[304] }
    }
    const error = errorRecord(route)
    for (const status of errorStatuses(route)) {
      responses[status] = { description: STATUS_TEXT[status], content: content(error) }
    }
    responses.default = {
      description: 'An unexpected error; the message never carries internals',
      content: content(error),
    }

    const body = pick(spec?.body, version)
    const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)
    const security =
      route.allowAnonymous && route.auth !== 'none' ? [...SECURITY[route.auth], {}] : SECURITY[route.auth]
    const operation: Json = {
      operationId: version ? `${route.functionId}-${version}` : route.functionId,
      tags: [route.path === '/api/openapi.json' ? 'meta' : AREA_TAGS[route.area]],
      summary: spec?.summary ?? `${route.method} ${route.path}`,
      ...(spec?.description ? { description: spec.description } : {}),
      ...(route.roles.length ? { 'x-roles': route.roles } : {}),
      security,
      ...(parameters.length ? { parameters } : {}),
      ...(hasBody ? { requestBody: { required: true, content: content(body ?? GenericObject) } } : {}),
      responses,
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'E-invoicing, signed bank transactions, merchant history and notification administration API',
      version: '3.1.0',
      description:
        'Area A: e-invoicing under /api/v1 and /api/v2 (FIRS/NRS MBS style). Area B: HMAC-signed bank transactions. Area C: merchant transaction history. Area D: notification templates and e-mails. Generated from the route table and the zod schemas by `npm run openapi`.',
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'The local server (npm start)' }],
    tags: [...Object.values(AREA_TAGS).map((name) => ({ name })), { name: 'meta' }],
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  }
}

/** The document as committed: two-space JSON with a final newline. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`
