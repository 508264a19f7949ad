import { existsSync, readFileSync } from 'node:fs'
import * as z from 'zod'
import { endpoints as declared } from '#lib/service/endpoints/index.ts'
import { EVENT_SCHEMAS, EVENT_TYPES, eventSummary } from '#lib/events/schemas.ts'
import {
  type DocumentedEndpoint,
  forVersion,
  isSuccess,
  type SuccessReply,
} from '#lib/platform/http/endpoint.ts'
import { errorRecord, recordComponents, successRecord } from '#lib/platform/http/records.ts'
import { referenceGuide } from './guide.ts'
import { replyShapeOf } from '#lib/platform/http/replies.ts'
import type { ReplyKind } from '#lib/platform/http/route.ts'
import { invoiceComponents } from '#lib/invoice/schemas.ts'
import { CATALOGUE, type CatalogueEntry } from '#lib/service/error-catalogue.ts'
import { ublOf } from '#lib/documents/ubl.ts'
import { type Area, type AuthScheme, type Route, routes as routeTable } from '#lib/service/routes.ts'
import {
  commonReplies,
  commonReplyHeaders,
  RATE_LIMITED,
  REPLY_HEADERS,
  takesIdempotencyKey,
} from './common-replies.ts'
import { describeInvoiceFields } from './field-notes.ts'
import { SERVICE_VERSION } from '#lib/platform/version.ts'

/**
 * The OpenAPI 3.1 document, generated from the route table (where each route is served and who may
 * call it) and the endpoint declarations of lib/service/endpoints (what each accepts and replies). Nothing
 * here declares a schema of its own. Deterministic: the same code gives the same bytes, which is what
 * lets a test hold the committed openapi.json to it.
 */

type Json = Record<string, unknown>

const COMPONENT_REF = '#/components/schemas/'
const PROJECT_ROOT = new URL('../../../', import.meta.url)

/**
 * The components: every schema registered with an `id` (the invoice parts, the area records, and the
 * records the declarations name with `.meta({ id })`) becomes one component, and every use a `$ref`.
 */
function convertComponents() {
  const named = { ...invoiceComponents(), ...recordComponents() }
  for (const [id, schema] of Object.entries(named)) {
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
  for (const id of Object.keys(schemas).sort()) {
    const { $schema: _s, $id: _i, id: _id, ...rest } = schemas[id]!
    out[id] = withoutSafeIntegerBounds(rest) as Json
  }
  return out
}

/** One catalogue entry as a line of a schema's description. */
const codeLine = (e: CatalogueEntry) =>
  `- \`${e.code}\` (${e.warningOnly ? 'warning' : e.status}${e.lenient ? ', a warning in lenient mode' : ''}): ${e.meaning}${e.example ? `, e.g. at \`${e.example}\`` : ''}`

/**
 * Every code a problem's `code` can hold, and every Area B and C `responseCode`, each with its status
 * and meaning (the error catalogue, lib/service/error-catalogue.ts): integrators branch on them, so
 * the document lists them all.
 */
function errorCodeSchemas(): Record<string, Json> {
  const problems = CATALOGUE.filter((e) => e.section !== 'response')
  const responses = CATALOGUE.filter((e) => e.section === 'response')
  return {
    ErrorCode: {
      type: 'string',
      enum: problems.map((e) => e.code),
      description: `The code of a problem in a reply's \`errors\` or \`warnings\` (docs/errors.md, what to do about each):\n${problems.map(codeLine).join('\n')}`,
    },
    ResponseCode: {
      type: 'string',
      enum: responses.filter((e) => e.status >= 400).map((e) => e.code),
      description: `An Area B or C error's \`responseCode\` (docs/errors.md):\n${responses
        .filter((e) => e.status >= 400)
        .map(codeLine)
        .join('\n')}`,
    },
  }
}

/** The ErrorCode and ResponseCode components, and a problem's `code` and an error's `responseCode` referring to them. */
function withErrorCodes(schemas: Record<string, Json>): Record<string, Json> {
  const problem = schemas.Problem as { properties: Record<string, Json> }
  problem.properties.code = { $ref: `${COMPONENT_REF}ErrorCode` }
  const bankError = schemas.ResponseCodeError as { properties: Record<string, Json> }
  bankError.properties.responseCode = { $ref: `${COMPONENT_REF}ResponseCode` }
  const areaBError = schemas.BankResponseCodeError as { properties: Record<string, Json> }
  areaBError.properties.responseCode = { $ref: `${COMPONENT_REF}ResponseCode` }
  return { ...schemas, ...errorCodeSchemas() }
}

/**
 * The codes any route's error reply of a status can carry (`x-error-codes`): the platform's
 * (authentication, roles, body, routing) and, on Area B and C routes, the response codes. The codes
 * of one endpoint's own rules (an invoice's NG-..., an IRN's) are in the ErrorCode list and the
 * reply's description.
 */
function errorCodesFor(kind: ReplyKind, status: number): string[] {
  const bankOrMerchant = kind === 'bank' || kind === 'merchant'
  const matches = (e: CatalogueEntry) =>
    (e.section === 'platform' || (bankOrMerchant && e.section === 'response')) &&
    (e.status === status || (status === 500 && e.code === '96'))
  return CATALOGUE.filter(matches).map((e) => e.code)
}

/**
 * z.int()'s bounds are the safe integers, not a limit of the field: shown, they read as "an integer
 * between -9007199254740991 and 9007199254740991", so a schema keeps only the bounds it was given.
 */
function withoutSafeIntegerBounds(value: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutSafeIntegerBounds(v))
  if (typeof value !== 'object' || value === null) return value
  const out: Json = {}
  for (const [key, v] of Object.entries(value)) {
    const safeBound =
      (key === 'minimum' && v === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && v === Number.MAX_SAFE_INTEGER)
    if (!isPropertyMap && safeBound) continue
    out[key] = withoutSafeIntegerBounds(v, !isPropertyMap && key === 'properties')
  }
  return out
}

/** Rewrites `#/$defs/X` to the component X: every $def is a registered component by construction. */
function toComponentRefs(value: unknown, known: Set<string>, isPropertyMap = false): unknown {
  if (Array.isArray(value)) return value.map((v) => toComponentRefs(v, known))
  if (typeof value !== 'object' || value === null) return value
  const out: Json = {}
  for (const [key, v] of Object.entries(value)) {
    // `id` is zod's component name on a schema, but a property of that name (in `properties`) stays.
    if (!isPropertyMap && (key === '$defs' || key === '$schema' || key === 'id')) continue
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
      const id = v.slice('#/$defs/'.length)
      if (!known.has(id)) throw new Error(`OpenAPI: ${id} is referenced but is not a registered component`)
      out[key] = `${COMPONENT_REF}${id}`
    } else {
      out[key] = toComponentRefs(v, known, !isPropertyMap && key === 'properties')
    }
  }
  return out
}

const versionOf = (route: Route) => /^\/api\/(v[12])\//.exec(route.path)?.[1] as 'v1' | 'v2' | undefined

const AREA_TAGS: Record<Area, string> = {
  A: 'A: e-invoicing',
  B: 'B: bank transactions',
  C: 'C: merchant transactions',
  D: 'D: notification administration',
}
const META_TAG = 'API reference'
const EVENTS_TAG = 'Events delivered to webhooks'

const TAG_DESCRIPTIONS: Record<string, string> = {
  [AREA_TAGS.A]:
    'Invoices, IRNs, QR codes, reference lists and the invoice lifecycle, under /api/v1 and /api/v2. Signed with x-api-key, x-api-signature and x-api-timestamp.',
  [AREA_TAGS.B]:
    'Signed bank transactions from the payment switch: bearer token plus X-Signature, X-Timestamp, X-Nonce.',
  [AREA_TAGS.C]: "A merchant's transaction history: the merchant's bearer token plus x-Merchant-Id.",
  [AREA_TAGS.D]:
    'Notification templates and the admin e-mail list: the notification admin key as a bearer token.',
  [META_TAG]: 'This document and the docs page rendered from it.',
  [EVENTS_TAG]:
    'What the service POSTs to a webhook subscription (CONTRACT section 11), signed per Standard Webhooks. A 2xx within 5 s is success; anything else is retried with backoff for at least 24 hours, always with the same webhook-id, so receivers deduplicate by it.',
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
    'Area A: Base64(HMAC-SHA256(api_secret, METHOD \\n PATH \\n x-api-timestamp \\n hex(SHA-256(body)))). PATH is the raw path plus `?` and the raw query. Sent together with x-api-key and x-api-timestamp.',
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

/** operationIds: the functionId and version, or the path where one function serves several paths. */
function operationIds(table: readonly Route[]): Map<Route, string> {
  const ids = new Map<Route, string>()
  const key = (r: Route) => `${r.functionId} ${versionOf(r) ?? ''}`
  const count = new Map<string, number>()
  for (const r of table) count.set(key(r), (count.get(key(r)) ?? 0) + 1)
  for (const r of table) {
    const version = versionOf(r)
    const base =
      (count.get(key(r)) ?? 0) > 1
        ? r.path
            .replace(/^\/api\/(v[12]\/)?/, '')
            .replace(/[{}]/g, '')
            .replaceAll('/', '-')
        : r.functionId
    ids.set(r, version ? `${base}-${version}` : base)
  }
  return ids
}

function readExample(file: string): unknown {
  const url = new URL(file, PROJECT_ROOT)
  return existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) : undefined
}

/** The declaration of a route, or a clear error naming what to add. */
export function declarationOf(
  route: Route,
  table: ReadonlyMap<string, DocumentedEndpoint> = declared,
): DocumentedEndpoint {
  const declaration = table.get(route.functionId)
  if (!declaration)
    throw new Error(
      `${route.method} ${route.path}: no endpoint declares ${route.functionId} (lib/service/endpoints)`,
    )
  return declaration
}

/** JSON Schema of a zod schema as the document holds it (input side, components as $refs). */
export type SchemaOf = (schema: z.ZodType) => unknown

export function schemaConverter(known: Set<string>): SchemaOf {
  return (schema) =>
    toComponentRefs(
      withoutSafeIntegerBounds(
        z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      ),
      known,
    )
}

function successContent(
  route: Route,
  status: number,
  reply: SuccessReply,
  toSchema: SchemaOf,
): Json | undefined {
  if (reply.empty) return undefined
  const version = versionOf(route)
  const data = reply.data === undefined ? undefined : forVersion(reply.data, version)
  if (reply.mediaType) return { [reply.mediaType]: { schema: data ? toSchema(data) : {} } }
  const shape = replyShapeOf(route)
  const declared = reply.example === undefined ? undefined : forVersion(reply.example, version)
  // The declared example is the interface's record; the route's reply also carries `code` (CONTRACT 17).
  const example =
    shape.withCode && typeof declared === 'object' && declared !== null && !Array.isArray(declared)
      ? { code: Number(status), ...declared }
      : declared
  const success = toSchema(successRecord(shape, data, Number(status)))
  const others = Object.entries(reply.otherMedia ?? {}).map(([media, description]) => [
    media,
    { schema: { type: 'string', description } },
  ])
  return {
    ...Object.fromEntries(others),
    'application/json': {
      schema: reply.orError ? { anyOf: [success, toSchema(errorRecord(replyShapeOf(route)))] } : success,
      ...(example === undefined ? {} : { example }),
    },
  }
}

/**
 * Replies many operations give word for word (the 429 of each area's error record), kept once in the
 * document's components.responses and referred to by name.
 */
type SharedReplies = Record<string, Json>

function operationOf(
  route: Route,
  declaration: DocumentedEndpoint,
  operationId: string,
  toSchema: SchemaOf,
  shared: SharedReplies,
): Json {
  const version = versionOf(route)
  const { request } = declaration
  const parameters: Json[] = []
  const params = request.params as z.ZodObject | undefined
  for (const name of route.path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? []) {
    const schema = params?.shape[name] as z.ZodType | undefined
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: schema ? toSchema(schema) : { type: 'string' },
    })
  }
  const query = request.query as z.ZodObject | undefined
  for (const [name, schema] of Object.entries(query?.shape ?? {})) {
    const optional = (schema as z.ZodType).safeParse(undefined).success
    parameters.push({ name, in: 'query', required: !optional, schema: toSchema(schema as z.ZodType) })
  }
  for (const h of declaration.headers) {
    parameters.push({
      name: h.name,
      in: 'header',
      required: h.required ?? false,
      description: h.description,
      schema: toSchema(h.schema),
    })
  }
  if (takesIdempotencyKey(route)) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A retry with the same key (1 to 128 visible ASCII characters) gets the first reply back.',
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$' },
    })
  }

  const replies = { ...commonReplies(route, declaration), ...declaration.replies }
  const error = toSchema(errorRecord(replyShapeOf(route)))
  const responses: Json = {}
  for (const status of Object.keys(replies)
    .map(Number)
    .sort((a, b) => a - b)) {
    const reply = replies[status]!
    const common = commonReplyHeaders(route, status)
    const headersOf = (declared: Record<string, string> = {}) => {
      const all: Json = {
        ...Object.fromEntries(common.map((name) => [name, { $ref: `#/components/headers/${name}` }])),
        ...Object.fromEntries(
          Object.entries(declared).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        ),
      }
      return Object.keys(all).length ? all : undefined
    }
    if (isSuccess(reply)) {
      const content = successContent(route, status, reply, toSchema)
      const headers = headersOf(reply.headers)
      responses[status] = {
        description: reply.orError ? `${reply.description}; or: ${reply.orError}` : reply.description,
        ...(headers ? { headers } : {}),
        ...(content ? { content } : {}),
      }
    } else {
      const headers = headersOf()
      const response = {
        description: reply,
        ...(headers ? { headers } : {}),
        content: { 'application/json': { schema: error } },
        'x-error-codes': errorCodesFor(route.reply, status),
      }
      if (status === 429 && reply === RATE_LIMITED) {
        const name = `RateLimited_${route.reply}_${route.profile}${replyShapeOf(route).withCode ? '_code' : ''}`
        shared[name] = response
        responses[status] = { $ref: `#/components/responses/${name}` }
      } else responses[status] = response
    }
  }
  responses.default = {
    description: 'An unexpected error; the message never carries internals (logged with the request id)',
    content: { 'application/json': { schema: error } },
    'x-error-codes': errorCodesFor(route.reply, 500),
  }

  let requestBody: Json | undefined
  // A route whose path carries the body (the authority's transmit) takes none.
  if (request.body && !route.bodyFromPath) {
    const body = forVersion(request.body, version)
    const example =
      declaration.example !== undefined
        ? forVersion(declaration.example, version)
        : declaration.exampleFile !== undefined
          ? readExample(forVersion(declaration.exampleFile, version))
          : undefined
    // Named examples (the sandbox's magic values) and the plain one cannot both be given (OpenAPI's
    // Media Type object): with named ones, the plain example is the first of them.
    const examples = declaration.examples
      ? {
          ...(example === undefined ? {} : { default: { summary: 'An example', value: example } }),
          ...declaration.examples,
        }
      : undefined
    requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: toSchema(body),
          ...(examples ? { examples } : example === undefined ? {} : { example }),
        },
        ...(request.xmlBody ? { 'application/xml': xmlRequestBody(example) } : {}),
      },
    }
  }

  const security =
    route.allowAnonymous && route.auth !== 'none' ? [...SECURITY[route.auth], {}] : SECURITY[route.auth]
  const isMeta = route.handler.startsWith('functions/meta/')
  return {
    operationId,
    tags: [isMeta ? META_TAG : AREA_TAGS[route.area]],
    summary: declaration.summary,
    description: declaration.description,
    ...(route.roles.length ? { 'x-roles': route.roles } : {}),
    security,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  }
}

/**
 * The UBL 2.1 body of a route that takes XML (CONTRACT 22): the JSON example as the service exports it,
 * which is what the route accepts back.
 */
function xmlRequestBody(example: unknown): Json {
  return {
    schema: {
      type: 'string',
      description:
        "A UBL 2.1 Invoice or CreditNote (OASIS UBL 2.1 schema), UTF-8, no DOCTYPE: checked against the schema, mapped to the invoice record (the inverse of get-invoice's UBL; the authority's type code in the type code's `name`, or UNCL 1001 alone; VAT categories as the authority's ids or EN 16931's S, Z, AA) and judged by the same rules, with the same replies. Problems are reported at the XPath of the element at fault (NG-XML-01 not well-formed or a DOCTYPE, NG-XML-02 not schema-valid, NG-XML-03 no invoice type for its code).",
    },
    ...(example && typeof example === 'object' ? { example: ublOf(example as Record<string, unknown>) } : {}),
  }
}

/**
 * The events as OpenAPI 3.1 `webhooks`: one POST per event type, its body the event's component
 * (lib/events/schemas.ts, the schema `newEvent` is typed by) and the Standard Webhooks headers.
 */
function eventWebhooks(): Json {
  const headers: Json[] = [
    ['webhook-id', 'The event id: the same on every attempt of this event, so a receiver deduplicates by it'],
    ['webhook-timestamp', 'Unix seconds of this attempt; reject it when far from your clock'],
    [
      'webhook-signature',
      '`v1,` + Base64(HMAC-SHA256(the secret after `whsec_`, Base64-decoded; "{webhook-id}.{webhook-timestamp}.{body}"))',
    ],
  ].map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }))
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event-${type.replace('.', '-')}`,
          tags: [EVENTS_TAG],
          summary: eventSummary(type),
          security: [],
          parameters: headers,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `${COMPONENT_REF}${z.globalRegistry.get(EVENT_SCHEMAS[type])!.id}` },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received. Any other answer, or none within 5 s, is retried' },
          },
        },
      },
    ]),
  )
}

interface RouteOperation {
  route: Route
  operation: Json
}

/**
 * The docs page's navigation lists operations by summary, and one endpoint serves several paths
 * (each version, the authority's paths): where a summary is shared, each operation's says which
 * it is, by its version where that tells them apart, else by its path.
 */
function distinguishSummaries(operations: readonly RouteOperation[]): void {
  const bySummary = new Map<string, RouteOperation[]>()
  for (const each of operations) {
    const summary = each.operation.summary as string
    bySummary.set(summary, [...(bySummary.get(summary) ?? []), each])
  }
  for (const [summary, sharing] of bySummary) {
    if (sharing.length < 2) continue
    const labels = sharing.map(({ route }) =>
      route.profile === 'authority' ? route.path : (versionOf(route) ?? route.path),
    )
    sharing.forEach(({ route, operation }, i) => {
      const unique = labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!)
      operation.summary = `${summary} · ${unique ? labels[i] : route.path}`
    })
  }
}

export function buildOpenApiDocument(
  table: readonly Route[] = routeTable,
  declarations: ReadonlyMap<string, DocumentedEndpoint> = declared,
): Json {
  const schemas = withErrorCodes(describeInvoiceFields(convertComponents()))
  const toSchema = schemaConverter(new Set(Object.keys(schemas)))
  const ids = operationIds(table)
  const paths: Record<string, Json> = {}
  const shared: SharedReplies = {}
  const operations: RouteOperation[] = []
  for (const route of table) {
    const operation = operationOf(
      route,
      declarationOf(route, declarations),
      ids.get(route)!,
      toSchema,
      shared,
    )
    operations.push({ route, operation })
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation }
  }
  distinguishSummaries(operations)
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-invoicing, signed bank transactions, merchant history and notification administration API',
      version: SERVICE_VERSION,
      description: `Implements the e-invoicing service interface 3.1.0 (docs/interface.md) with the decisions of docs/CONTRACT.md. Area A: e-invoicing under /api/v1 and /api/v2 (FIRS/NRS MBS style). Area B: HMAC-signed bank transactions. Area C: merchant transaction history. Area D: notification templates and e-mails. Generated from the route table and the endpoint declarations by \`npm run openapi\`; the human-readable reference is at /api/docs.\n\n${referenceGuide()}`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: 'http://127.0.0.1:3000',
        description: 'The local server (npm start); a served copy names the URL it was fetched from',
      },
    ],
    tags: [...Object.values(AREA_TAGS), META_TAG, EVENTS_TAG].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name],
    })),
    paths,
    webhooks: eventWebhooks(),
    components: { schemas, responses: shared, headers: REPLY_HEADERS, securitySchemes: SECURITY_SCHEMES },
  }
}
