import { randomBytes } from 'node:crypto'
import { buildEncrypt } from '@aws-crypto/encrypt-node'
import { KmsKeyringNode } from '@aws-crypto/kms-keyring-node'
import { AlgorithmSuiteIdentifier, CommitmentPolicy } from '@aws-crypto/material-management-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DecryptionFailed, decryptField, encryptField, isEncrypted } from '#lib/platform/crypto/fields.ts'
import { localKeyring, rotatingKeyring } from '#lib/platform/crypto/keyring.ts'
import { type KmsStandIn, startKmsStandIn } from '../../support/kms-stand-in.ts'

const context = { record: 'api-client', id: 'ak_one', field: 'secret' }

describe('field encryption', () => {
  it('round-trips a value as enc:v1:<Base64>, a fresh ciphertext each time', async () => {
    const a = await encryptField('s3cret-value', context)
    const b = await encryptField('s3cret-value', context)
    expect(a).toMatch(/^enc:v1:[A-Za-z0-9+/]+=*$/)
    expect(a).not.toBe(b)
    expect(isEncrypted(a)).toBe(true)
    expect(await decryptField(a, context)).toBe('s3cret-value')
    expect(await decryptField(b, context, { cache: true })).toBe('s3cret-value')
  })

  it('passes a plaintext value (stored before the migration) through unchanged', async () => {
    expect(isEncrypted('plain')).toBe(false)
    expect(await decryptField('plain', context)).toBe('plain')
  })

  it('refuses a ciphertext bound to another record or field, without revealing the value', async () => {
    const stored = await encryptField('s3cret-value', context)
    for (const other of [
      { ...context, id: 'ak_two' },
      { ...context, field: 'note' },
      { ...context, record: 'switch-client' },
      { ...context, extra: 'pair' },
    ]) {
      const failure = await decryptField(stored, other, { cache: true }).catch((e: unknown) => e)
      expect(failure).toBeInstanceOf(DecryptionFailed)
      expect(String((failure as Error).message)).not.toContain('s3cret-value')
    }
  })

  it('opens only under the key that sealed it; a rotating keyring opens old and new', async () => {
    const oldRing = localKeyring(randomBytes(32))
    const newRing = localKeyring(randomBytes(32))
    const sealed = await encryptField('v', context, oldRing)
    await expect(decryptField(sealed, context, { keyring: newRing })).rejects.toBeInstanceOf(DecryptionFailed)
    const both = rotatingKeyring(newRing, [oldRing])
    expect(await decryptField(sealed, context, { keyring: both })).toBe('v')
    expect(await decryptField(await encryptField('w', context, both), context, { keyring: newRing })).toBe(
      'w',
    )
  })

  it('refuses a damaged ciphertext', async () => {
    const stored = await encryptField('s3cret-value', context)
    const damaged = `${stored.slice(0, -8)}AAAAAAA=`
    await expect(decryptField(damaged, context)).rejects.toBeInstanceOf(DecryptionFailed)
    await expect(decryptField('enc:v1:not-base64-at-all', context)).rejects.toBeInstanceOf(DecryptionFailed)
  })
})

describe('field encryption against KMS (a counted stand-in)', () => {
  let kms: KmsStandIn
  beforeAll(async () => {
    kms = await startKmsStandIn()
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_KMS: kms.endpoint,
      AWS_ACCESS_KEY_ID: 'stand-in',
      AWS_SECRET_ACCESS_KEY: 'stand-in',
      AWS_REGION: 'eu-west-1',
    })
  })
  afterAll(() => kms?.close())

  it('makes one GenerateDataKey and one Decrypt for many values of different records', async () => {
    const ring = new KmsKeyringNode({ generatorKeyId: kms.keyArn })
    const contexts = Array.from({ length: 50 }, (_, i) => ({
      record: 'invoice',
      id: `IRN-${i}`,
      field: 'note',
    }))
    const sealed = []
    for (const c of contexts) sealed.push(await encryptField(`note ${c.id}`, c, ring))
    for (const [i, c] of contexts.entries()) {
      expect(await decryptField(sealed[i]!, c, { keyring: ring })).toBe(`note ${c.id}`)
    }
    expect(kms.calls).toEqual({ GenerateDataKey: 1, Decrypt: 1 })
    // KMS still sees the kind of record, which the functions' key grants are conditioned on.
    expect(kms.contexts).toEqual([{ record: 'invoice' }, { record: 'invoice' }])
    // Still bound to its record: the shared data key does not make a value open under another id.
    await expect(
      decryptField(sealed[0]!, { ...contexts[0]!, id: 'IRN-1' }, { keyring: ring }),
    ).rejects.toBeInstanceOf(DecryptionFailed)
  })

  it('opens values written before shared data keys (data key wrapped under their own context)', async () => {
    const ring = new KmsKeyringNode({ generatorKeyId: kms.keyArn })
    const { encrypt } = buildEncrypt(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT)
    const { result } = await encrypt(ring, Buffer.from('old value'), {
      encryptionContext: context,
      suiteId: AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY,
    })
    expect(await decryptField(`enc:v1:${result.toString('base64')}`, context, { keyring: ring })).toBe(
      'old value',
    )
  })
})
