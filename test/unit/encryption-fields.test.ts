import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DecryptionFailed, decryptField, encryptField, isEncrypted } from '#lib/crypto/fields.ts'
import { localKeyring, rotatingKeyring } from '#lib/crypto/keyring.ts'

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
