import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { PROBLEM_CODES, RESPONSE_CODE_SET } from '#lib/service/error-catalogue.ts'
import { buildOpenApiDocument } from '#lib/service/openapi/document.ts'

/**
 * The published contract as the tests hold the API to it: every reply a test receives is validated
 * against the OpenAPI document's schema for its route and status (ajv, JSON Schema 2020-12), and a
 * reply the document does not describe fails the test that received it.
 */

type Json = Record<string, any>

export const document = buildOpenApiDocument() as Json

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi')

const compiled = new Map<object, ValidateFunction>()

/** A validator for a schema of the document (its `#/components/...` refs resolve into the document). */
export function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (!validate) {
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))
    validate = ajv.compile(rebased)
    compiled.set(schema, validate)
  }
  return validate
}

interface Operation {
  path: string
  method: string
  operation: Json
}

const templates: { regex: RegExp; path: string }[] = Object.keys(document.paths).map((path) => ({
  path,
  regex: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
}))

/** How many parameters a path template has: the fewer, the more specific (as API Gateway picks). */
const parametersIn = (path: string) => path.split('{').length - 1

/**
 * The operation the document gives for a request, by method and URL: among the paths that match and
 * have that method, the most specific (`/api/v1/invoice/party` before `/api/v1/invoice/{business_id}`).
 */
export function operationFor(method: string, url: string): Operation | undefined {
  const { pathname } = new URL(url, 'http://localhost')
  const verb = method.toLowerCase()
  const match = templates
    .filter((t) => t.regex.test(pathname) && document.paths[t.path][verb])
    .sort((a, b) => parametersIn(a.path) - parametersIn(b.path))[0]
  const operation = match && document.paths[match.path][verb]
  return operation ? { path: match.path, method: method.toUpperCase(), operation } : undefined
}

/** The error records of the areas: a request no route matches is answered in one of these. */
const errorRecords = [
  'FirsErrorDetails',
  'FirsErrorWithCode',
  'FailedEnvelope',
  'ResponseCodeError',
  'NotificationError',
].map((name) => validatorFor({ $ref: `#/components/schemas/${name}` }))

const describe = (errors: unknown) => JSON.stringify(errors, null, 1).slice(0, 1500)

/**
 * Throws when a reply breaks the contract: a status the operation does not list, a body that does
 * not validate against that status's schema, or a body where the document says there is none.
 */
export function checkReply(
  method: string,
  url: string,
  reply: { status: number; headers: Headers; body: unknown; text: string },
): void {
  const found = operationFor(method, url)
  const where = `${method.toUpperCase()} ${new URL(url, 'http://localhost').pathname} -> ${reply.status}`
  if (!found) {
    // No route: the catch-all's 404/405 in the record of the path's area.
    if (![404, 405].includes(reply.status) || !errorRecords.some((v) => v(reply.body))) {
      throw new Error(
        `Contract: ${where} is not a route of the document, and the reply is not an area error record`,
      )
    }
    checkErrorCodes(where, reply)
    return
  }
  const responses = found.operation.responses as Json
  const listed = responses[reply.status] ?? (reply.status >= 500 ? responses.default : undefined)
  // A reply many operations share is a reference to the document's components.responses.
  const response = listed?.$ref ? document.components.responses[listed.$ref.split('/').pop()] : listed
  if (!response) {
    throw new Error(
      `Contract: ${where}: the document lists no ${reply.status} for ${found.method} ${found.path} (it lists ${Object.keys(responses).join(', ')})`,
    )
  }
  const content = response.content as Json | undefined
  if (!content) {
    if (reply.text !== '') throw new Error(`Contract: ${where}: the document says no body, the reply has one`)
    return
  }
  const contentType = reply.headers.get('content-type')?.split(';')[0]?.trim() ?? ''
  const media = content[contentType]
  if (!media) {
    throw new Error(
      `Contract: ${where}: replied ${contentType || 'no content-type'}, the document gives ${Object.keys(content).join(', ')}`,
    )
  }
  if (contentType !== 'application/json') return
  const validate = validatorFor(media.schema)
  if (!validate(reply.body)) {
    throw new Error(
      `Contract: ${where}: the body does not match the document's schema: ${describe(validate.errors)}`,
    )
  }
  checkErrorCodes(where, reply)
}

const codesIn = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((item) => (item as { code?: unknown })?.code as string) : []

/**
 * CONTRACT 20: every error reply carries a stable code, and every code a reply carries (an error's
 * and a warning's) is in the error catalogue (lib/service/error-catalogue.ts, docs/errors.md). Checked
 * on every reply every test receives, so a code sent anywhere in the suite that the catalogue lacks
 * fails the test that got it. Where the code is: `errors[].code` (Area A, inside the Envelope's
 * `error` on Envelope routes, and Area D), `responseCode` (Areas B and C).
 */
export function checkErrorCodes(where: string, reply: { status: number; body: unknown }): void {
  const { body } = reply
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return
  const record = body as Json
  const inner = record.error !== null && typeof record.error === 'object' ? (record.error as Json) : {}
  const errors = record.errors ?? inner.errors
  const problems = [...codesIn(errors), ...codesIn(record.warnings ?? inner.warnings)]
  const unknown = problems.filter((code) => !PROBLEM_CODES.has(code))
  if (unknown.length) {
    throw new Error(
      `Contract: ${where}: codes not in the error catalogue (docs/errors.md): ${unknown.join(', ')}`,
    )
  }
  // An error record: Area A's (`errors`, or the Envelope's `error`), B and C's, D's (a numeric
  // status). A 503 the route declares in its own record (the health check's DOWN) is not one.
  const isErrorRecord =
    'errors' in record ||
    (record.error !== null && typeof record.error === 'object') ||
    'responseCode' in record ||
    typeof record.status === 'number'
  if (reply.status < 400 || !isErrorRecord) return
  const responseCode = record.responseCode
  if (responseCode !== undefined) {
    if (!RESPONSE_CODE_SET.has(responseCode)) {
      throw new Error(
        `Contract: ${where}: responseCode ${responseCode} is not in the error catalogue (docs/errors.md)`,
      )
    }
    return
  }
  if (!codesIn(errors).length) {
    throw new Error(`Contract: ${where}: an error reply without a code (errors is empty or missing)`)
  }
}
