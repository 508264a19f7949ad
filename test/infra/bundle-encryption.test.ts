import { execFile, spawnSync } from 'node:child_process'
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
import { decryptField, encryptField } from '#lib/platform/crypto/fields.ts'
import { localKeyring } from '#lib/platform/crypto/keyring.ts'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'
import { startKmsStandIn } from '../support/kms-stand-in.ts'

/**
 * The bundles replace three of the Encryption SDK's dependencies (bn.js, asn1.js, the KMS client)
 * with small shims (infra/constructs/shims). Field encryption must still work inside a bundle, and a
 * signed message, the only thing the shims cannot serve, must fail as a DecryptionFailed.
 */
const outDir = mkdtempSync(join(tmpdir(), 'bundle-encryption-'))
const file = join(outDir, 'field-encryption.mjs')
afterAll(() => rmSync(outDir, { recursive: true, force: true }))
beforeAll(async () => {
  const result = await build(esbuildOptionsFor('test/fixtures/bundles/field-encryption.ts', file))
  // What is in the output (inputs esbuild read but tree-shook away contribute no bytes).
  const bundled = Object.values(result.metafile.outputs)
    .flatMap((output) => Object.entries(output.inputs))
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input)
    .join('\n')
  expect(bundled).not.toMatch(/node_modules\/(bn\.js|asn1\.js)\//)
  expect(bundled).not.toMatch(/client-kms\/dist-es\/KMS\.js/)
  expect(bundled).not.toMatch(/node_modules\/readable-stream\//)
}, 60_000)

function inBundle(call: string): string {
  const load = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `${load} process.stdout.write(String(await ${call}))`],
    // A stream that never ends would hang the process: the timeout turns that into a failure.
    { env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1' }, encoding: 'utf8', timeout: 20_000 },
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

  // The SDK's streams run on Node's own (infra/constructs/shims/readable-stream.mjs): values of one
  // frame (4,096 bytes), of its size and of several frames, both ways between the bundle and the
  // real packages, and a damaged value refused rather than hanging.
  const sizes = [0, 1, 4095, 4096, 4097, 30_000]
  const textOf = (size: number) => 'ñ€x'.repeat(Math.ceil(size / 3)).slice(0, size)

  it.each(sizes)('seals and opens a value of %i characters across frames, both ways', async (size) => {
    const value = textOf(size)
    const k = JSON.stringify(key.toString('base64'))
    const sealed = inBundle(`m.seal(${k}, ${JSON.stringify(value)}, ${JSON.stringify(context)})`)
    expect(sealed).toMatch(/^enc:v1:/)
    expect(await decryptField(sealed, context, { keyring: localKeyring(key) })).toBe(value)
    const outside = await encryptField(value, context, localKeyring(key))
    expect(inBundle(`m.open(${k}, ${JSON.stringify(outside)}, ${JSON.stringify(context)})`)).toBe(value)
  })

  it('refuses a damaged or misbound value as DecryptionFailed', async () => {
    const k = JSON.stringify(key.toString('base64'))
    const sealed = await encryptField(textOf(9000), context, localKeyring(key))
    const bytes = Buffer.from(sealed.slice('enc:v1:'.length), 'base64')
    for (const damaged of [
      Buffer.concat([bytes.subarray(0, 200), Buffer.from([bytes[200]! ^ 1]), bytes.subarray(201)]),
      bytes.subarray(0, bytes.length - 40),
    ]) {
      const stored = `enc:v1:${damaged.toString('base64')}`
      expect(inBundle(`m.open(${k}, ${JSON.stringify(stored)}, ${JSON.stringify(context)})`)).toBe(
        'failed: DecryptionFailed',
      )
    }
    const other = JSON.stringify({ ...context, id: 'another' })
    expect(inBundle(`m.open(${k}, ${JSON.stringify(sealed)}, ${other})`)).toBe('failed: DecryptionFailed')
  })

  it('encrypts and decrypts through the KMS keyring, one GenerateDataKey and one Decrypt', async () => {
    const kms = await startKmsStandIn()
    try {
      const load = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `${load} process.stdout.write(await m.kmsRoundTrip(${JSON.stringify(kms.keyArn)}, 'note'))`,
          ],
          {
            env: {
              PATH: process.env.PATH,
              AWS_REGION: 'eu-west-1',
              AWS_ENDPOINT_URL_KMS: kms.endpoint,
              AWS_ACCESS_KEY_ID: 'stand-in',
              AWS_SECRET_ACCESS_KEY: 'stand-in',
            },
          },
          (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      )
      expect(out).toBe('note')
      expect(kms.calls).toEqual({ GenerateDataKey: 1, Decrypt: 1 })
    } finally {
      await kms.close()
    }
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
