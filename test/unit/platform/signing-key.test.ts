import { execFile } from 'node:child_process'
import { createPublicKey, sign, verify } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { mockClient } from 'aws-sdk-client-mock'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jwkThumbprint } from '#lib/platform/signing/jwk.ts'
import { createKeySource, newSigningKeyPem, SIGNING_KEY_FILE } from '#lib/platform/signing/key-source.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signing-key-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('the local signing key file', () => {
  it('is generated once and read back by every later loader', async () => {
    const keysDir = join(dir, 'once')
    const first = await createKeySource({ KEYS_DIR: keysDir })()
    const second = await createKeySource({ KEYS_DIR: keysDir })()
    expect(first.source).toBe('file')
    expect(second.jwk).toEqual(first.jwk)
    expect(await readdir(keysDir)).toEqual([SIGNING_KEY_FILE])
  })

  it('ends with one key when several processes create it at the same moment', async () => {
    const keysDir = join(dir, 'race')
    const module = new URL('../../../lib/platform/signing/key-source.ts', import.meta.url).href
    const script = join(dir, 'load-key.mts')
    await writeFile(
      script,
      `import { createKeySource } from ${JSON.stringify(module)}\n` +
        `const key = await createKeySource({ KEYS_DIR: ${JSON.stringify(keysDir)} })()\n` +
        'console.log(key.jwk.kid)\n',
    )
    const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url))
    const run = () => promisify(execFile)(tsx, [script])
    const kids = (await Promise.all(Array.from({ length: 4 }, run))).map((out) => out.stdout.trim())
    expect(new Set(kids).size).toBe(1)
    // No temp file is left behind by the processes that lost.
    expect(await readdir(keysDir)).toEqual([SIGNING_KEY_FILE])
    // Stored sealed under the local data key (issue 7), never as a plain PEM.
    const stored = await readFile(join(keysDir, SIGNING_KEY_FILE), 'utf8')
    expect(stored).toMatch(/^enc:v1:/)
    expect(stored).not.toContain('PRIVATE KEY')
  }, 60_000)

  it('refuses to generate a key inside Lambda when no secret is configured', async () => {
    await expect(
      createKeySource({ AWS_LAMBDA_FUNCTION_NAME: 'app-invoice-sign', KEYS_DIR: join(dir, 'lambda') })(),
    ).rejects.toThrow(/SIGNING_KEY_SECRET_ARN is not set/)
  })
})

describe('the signing key from Secrets Manager', () => {
  const secrets = mockClient(SecretsManagerClient)
  afterEach(() => secrets.reset())
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:invoice-signing-key'

  it('reads the PEM once per container and signs with it', async () => {
    const pem = newSigningKeyPem()
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: pem })
    const load = createKeySource({ SIGNING_KEY_SECRET_ARN: ARN })
    const key = await load()
    await load()
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1)
    expect(key).toMatchObject({ source: 'secrets-manager', location: ARN })
    // The published JWK verifies what the private key signs.
    const data = Buffer.from('{"irn":"INV001-94ND90NR-20261121"}')
    const jwk = createPublicKey({ key: { kty: key.jwk.kty, crv: key.jwk.crv, x: key.jwk.x }, format: 'jwk' })
    expect(verify(null, data, jwk, sign(null, data, key.privateKey))).toBe(true)
    expect(key.jwk).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.any(String),
      kid: jwkThumbprint(key.jwk),
      use: 'sig',
      alg: 'EdDSA',
    })
  })

  it('accepts the secret as JSON {"privateKey": "<PEM>"}', async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ privateKey: newSigningKeyPem() }) })
    expect((await createKeySource({ SIGNING_KEY_SECRET_ARN: ARN })()).source).toBe('secrets-manager')
  })

  it('says what is wrong with a secret that holds no Ed25519 key', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'not a key' })
    await expect(createKeySource({ SIGNING_KEY_SECRET_ARN: ARN })()).rejects.toThrow(
      /holds no PEM private key/,
    )
  })

  it('tries again on the next call after a failed read, instead of keeping the failure', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ SecretString: newSigningKeyPem() })
    const load = createKeySource({ SIGNING_KEY_SECRET_ARN: ARN })
    await expect(load()).rejects.toThrow('throttled')
    expect((await load()).source).toBe('secrets-manager')
  })
})
