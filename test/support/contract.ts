import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
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

const parameters = (path: string) => path.split('{').length - 1

/** The operation the document gives for a request, by method and URL. */
export function operationFor(method: string, url: string): Operation | undefined {
  const { pathname } = new URL(url, 'http://localhost')
  // The most specific template serving the method, as API Gateway picks a route: a literal segment
  // (`transmit/pull`) wins over a parameter (`transmit/{irn}`).
  const match = templates
    .filter((t) => t.regex.test(pathname) && document.paths[t.path][method.toLowerCase()])
    .sort((a, b) => parameters(a.path) - parameters(b.path))[0]
  const operation = match && document.paths[match.path][method.toLowerCase()]
  return operation ? { path: match.path, method: method.toUpperCase(), operation } : undefined
}

/** The error records of the areas: a request no route matches is answered in one of these. */
const errorRecords = ['FirsErrorDetails', 'FailedEnvelope', 'ResponseCodeError', 'NotificationError'].map(
  (name) => validatorFor({ $ref: `#/components/schemas/${name}` }),
)

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
}
