import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildEncrypt } from '@aws-crypto/encrypt-node'
import { AlgorithmSuiteIdentifier, CommitmentPolicy } from '@aws-crypto/material-management-node'
import { build } from 'esbuild'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encryptField } from '#lib/crypto/fields.ts'
import { localKeyring } from '#lib/crypto/keyring.ts'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'

/**
 * The bundles replace two of the Encryption SDK's dependencies (bn.js, asn1.js)
 * with small shims (infra/constructs/shims). Field encryption must still work inside a bundle, and a
 * signed message, the only thing the shims cannot serve, must fail as a DecryptionFailed.
 */
const outDir = mkdtempSync(join(tmpdir(), 'bundle-encryption-'))
const file = join(outDir, 'field-encryption.mjs')
afterAll(() => rmSync(outDir, { recursive: true, force: true }))
beforeAll(async () => {
  const result = await build(esbuildOptionsFor('test/fixtures/bundles/field-encryption.ts', file))
  const inputs = Object.keys(result.metafile.inputs).join('\n')
  expect(inputs).not.toMatch(/node_modules\/(bn\.js|asn1\.js)\//)
}, 60_000)

function inBundle(call: string): string {
  const load = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `${load} process.stdout.write(String(await ${call}))`],
    { env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1' }, encoding: 'utf8' },
  )
  expect(run.stderr).toBe('')
  return run.stdout
}

const key = randomBytes(32)
const context = { record: 'api-client', id: 'bundle-test', field: 'secret' }

describe('field encryption inside a bundle', () => {
  it('encrypts and decrypts', () => {
    expect(inBundle(`m.roundTrip(${JSON.stringify(key.toString('base64'))}, 's3cret')`)).toBe('s3cret')
  })

  it('opens a value sealed outside the bundle by the real packages', async () => {
    const sealed = await encryptField('from outside', context, localKeyring(key))
    const call = `m.open(${JSON.stringify(key.toString('base64'))}, ${JSON.stringify(sealed)}, ${JSON.stringify(context)})`
    expect(inBundle(call)).toBe('from outside')
  })

  it('refuses an ECDSA-signed message as DecryptionFailed, not a crash', async () => {
    const { encrypt } = buildEncrypt(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT)
    const { result } = await encrypt(localKeyring(key), Buffer.from('signed'), {
      encryptionContext: context,
      suiteId: AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY_ECDSA_P384,
    })
    const stored = `enc:v1:${result.toString('base64')}`
    const call = `m.open(${JSON.stringify(key.toString('base64'))}, ${JSON.stringify(stored)}, ${JSON.stringify(context)})`
    expect(inBundle(call)).toBe('failed: DecryptionFailed')
  })
})

describe('the bn.js shim', () => {
  const require = createRequire(import.meta.url)
  const Shim = require('../../infra/constructs/shims/bn.cjs')
  const Real = require('bn.js')

  it('writes and reads 64-bit content lengths as bn.js does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const bytes = new Shim(n).toArray('be', 8)
        expect(bytes).toEqual(new Real(n).toArray('be', 8))
        expect(new Shim(bytes, 16, 'be').toNumber()).toBe(new Real(bytes, 16, 'be').toNumber())
      }),
    )
  })
})
