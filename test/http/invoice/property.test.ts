import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RULE_CODES } from '#lib/invoice/rule-codes.ts'
import { PROBLEM_CODES } from '#lib/service/error-catalogue.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * Malformed input of every JSON type in every field of the invoice never yields a 500: through the
 * whole handler path (HTTP, authentication, validation, canonical form, signing, DynamoDB), every
 * reply is a success or an error record a person can act on, with documented codes.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

type Json = unknown
type Path = (string | number)[]

/** Every path of a value: objects' keys and arrays' indexes, at every depth, the root included. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix]
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...pathsOf(v, [...prefix, i]))
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]))
  }
  return out
}

const TEMPLATE = buildInvoice()
const PATHS = pathsOf(TEMPLATE)

type Mutation =
  | { kind: 'replace'; path: Path; value: Json }
  | { kind: 'delete'; path: Path }
  | { kind: 'add'; path: Path; key: string; value: Json }

/** Values of every JSON type, edge cases weighted in: huge, tiny, negative, empty, nested. */
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -1,
    1e300,
    -1e300,
    5e-324,
    2 ** 53 + 2,
    0.1,
    '',
    ' ',
    '\u0000',
    '2026-02-30',
    [],
    {},
    [null],
    { __proto__: 1 },
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
)

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      path: fc.constantFrom(...PATHS),
      value: anyJson,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      path: fc.constantFrom(...PATHS.filter((p) => p.length)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      path: fc.constantFrom(...PATHS),
      key: fc.string({ maxLength: 12 }),
      value: anyJson,
    }),
  },
)

function apply(mutations: Mutation[]): Json {
  let root: Json = structuredClone(buildInvoice())
  for (const m of mutations) {
    if (m.path.length === 0) {
      if (m.kind === 'replace') root = m.value
      else if (m.kind === 'add' && root && typeof root === 'object' && !Array.isArray(root))
        (root as Record<string, Json>)[m.key] = m.value
      continue
    }
    let parent: any = root
    for (const seg of m.path.slice(0, -1)) parent = parent?.[seg]
    if (!parent || typeof parent !== 'object') continue
    const last = m.path.at(-1)!
    if (m.kind === 'replace') parent[last] = m.value
    else if (m.kind === 'delete') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last]
    else if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
      parent[last][m.key] = m.value
  }
  return root
}

const KNOWN = new Set(Object.keys(RULE_CODES))

describe.each([
  ['/api/v1/app/invoice/sign', 'app'],
  ['/api/v2/app/invoice/sign', 'app'],
  ['/api/v2/si/validate', 'si'],
] as const)('POST %s with malformed invoices', (target, role) => {
  it('never answers 500: every reply is a success or an error record with documented codes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (mutations, lenient) => {
          const body = apply(mutations)
          // Serialised here: the client would send a string body as raw text, not as a JSON string.
          const reply = await clients[role].post<any>(
            target,
            JSON.stringify(body),
            lenient ? { 'x-validation-mode': 'lenient' } : {},
          )
          expect([200, 400, 404, 409, 413]).toContain(reply.status)
          if (reply.status === 200) {
            expect(reply.body).toMatchObject({
              message: expect.any(String),
              payment_status: expect.stringMatching(/^(PENDING|PAID|REJECTED)$/),
            })
            for (const w of reply.body.warnings ?? []) expect(KNOWN).toContain(w.code)
          } else {
            expect(reply.body).toMatchObject({
              status: expect.stringMatching(/^\d{3} [A-Z_]+$/),
              message: expect.any(String),
            })
            for (const e of reply.body.errors) {
              // A field's problem has an invoice rule code; a refusal of the body as a whole (not
              // JSON, another business, a conflict) has its own catalogue code at the empty path.
              expect(e.path === '' ? PROBLEM_CODES : KNOWN).toContain(e.code)
              expect(e.message.length).toBeGreaterThan(0)
            }
            // A body the JSON parser refuses (e.g. a __proto__ key) is named as such; every other 400 lists its problems.
            if (reply.status === 400 && !/^The request body is not valid JSON/.test(reply.body.message)) {
              expect(reply.body.errors.length).toBeGreaterThan(0)
            }
          }
        },
      ),
      { numRuns: 200 },
    )
  }, 120_000)
})
