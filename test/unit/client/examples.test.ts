import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { signingVectors } from '../../support/signing-vectors.ts'

/**
 * The signing examples of client/examples/ (TypeScript with node:crypto, Python with its standard
 * library, bash with openssl), run as an integrator runs them, reproduce every known-answer vector of
 * docs/signing-vectors.json: Area A (CONTRACT section 2) and Area B (section 6).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const { areaA, areaB } = signingVectors

const EXAMPLES = {
  // The Node that runs the tests (22, which runs TypeScript as it is).
  typescript: [process.execPath, 'client/examples/sign.ts'],
  python: ['python3', 'client/examples/sign.py'],
  curl: ['bash', 'client/examples/sign.sh'],
} as const

const cases = Object.entries(EXAMPLES).flatMap(([language, command]) => [
  ...areaA.map((vector) => ({ language, command, area: 'A' as const, vector })),
  ...areaB.map((vector) => ({ language, command, area: 'B' as const, vector })),
])

function run(command: readonly string[], args: string[], body: Buffer, secret: string) {
  const [program, ...rest] = command
  const result = spawnSync(program!, [...rest, ...args], {
    cwd: root,
    input: body,
    env: { PATH: process.env.PATH, SIGNING_SECRET: secret },
    encoding: 'utf8',
  })
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0)
  return result.stdout
}

describe('the signing examples against docs/signing-vectors.json', () => {
  it('covers both areas in three languages', () => {
    expect(areaA.length).toBeGreaterThanOrEqual(4)
    expect(areaB.length).toBe(3)
    expect(cases.length).toBe(3 * (areaA.length + areaB.length))
  })

  it.each(cases)(
    '$language, Area $area, $vector.id: the published signature',
    ({ command, area, vector }) => {
      const body = Buffer.from(vector.bodyHex, 'hex')
      const args = [
        area,
        vector.method,
        vector.path,
        vector.timestamp,
        ...(area === 'B' ? [vector.nonce!] : []),
      ]
      const printed = run(command, args, body, vector.secret)
      expect(printed).toBe(
        area === 'A'
          ? `x-api-timestamp: ${vector.timestamp}\nx-api-signature: ${vector.signature}\n`
          : `X-Timestamp: ${vector.timestamp}\nX-Nonce: ${vector.nonce}\nX-Signature: ${vector.signature}\n`,
      )
    },
  )

  it.each(Object.entries(EXAMPLES))(
    '%s: without a timestamp and nonce, signs now with a fresh nonce of the contract form',
    (_, command) => {
      const a = run(command, ['A', 'get', '/api/v1/resource/states'], Buffer.alloc(0), 's')
      expect(a).toMatch(
        /^x-api-timestamp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\nx-api-signature: [A-Za-z0-9+/]{43}=\n$/,
      )
      const b = run(command, ['B', 'POST', '/api/v1/transactions/transfer'], Buffer.from('{}'), 's')
      expect(b).toMatch(
        /^X-Timestamp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\nX-Nonce: [A-Za-z0-9_-]{16,64}\nX-Signature: [A-Za-z0-9+/]{43}=\n$/,
      )
    },
  )
})
