'use strict'
/**
 * Bundled in place of bn.js (an esbuild alias, api-function.ts): about 44 KB of every bundle that
 * opens a stored secret. The Encryption SDK uses bn.js for two things: the 64-bit content lengths of
 * its message format (new BN(number or bytes), toArray('be', 8), toNumber), and ECDSA public-key
 * point arithmetic for signed message formats, which the project never writes (lib/platform/crypto/fields.ts
 * uses an unsigned committing suite). The first, and the curve constants the SDK computes when it
 * loads (new BN(hex, 16), mod, eq, add, div, bitLength), are done here with BigInt; the point
 * arithmetic is not, so opening a signed message fails, which decryptField reports as
 * DecryptionFailed. test/infra/bundle-encryption.test.ts runs both through a bundle.
 */
const unsupported = () => {
  throw new Error('ECDSA-signed Encryption SDK messages are not supported: bn.js is not bundled')
}
class BN {
  constructor(value, base, endian = 'be') {
    if (typeof value === 'bigint') this.value = value
    else if (typeof value === 'number' && Number.isSafeInteger(value)) this.value = BigInt(value)
    else if (typeof value === 'string' && base === 16) this.value = BigInt(`0x${value}`)
    else if (Array.isArray(value) && (base === undefined || base === 16) && endian === 'be')
      // Bytes, most significant first (bn.js reads an array as bytes whatever the base).
      this.value = value.reduce((n, byte) => (n << 8n) | BigInt(byte), 0n)
    else unsupported()
  }
  toNumber() {
    if (this.value > BigInt(Number.MAX_SAFE_INTEGER))
      throw new Error('Number can only safely store up to 53 bits')
    return Number(this.value)
  }
  toArray(endian, length) {
    if (endian !== 'be') unsupported()
    const bytes = []
    for (let n = this.value; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn))
    if (length !== undefined && bytes.length > length)
      throw new Error('byte array longer than desired length')
    while (length !== undefined && bytes.length < length) bytes.unshift(0)
    return bytes.length ? bytes : [0]
  }
  mod(m) {
    return new BN(((this.value % m.value) + m.value) % m.value)
  }
  eq(other) {
    return this.value === other.value
  }
  add(other) {
    return new BN(this.value + other.value)
  }
  div(other) {
    return new BN(this.value / other.value)
  }
  bitLength() {
    return this.value === 0n ? 0 : this.value.toString(2).length
  }
  static mont() {
    return undefined
  }
}
for (const name of ['pow', 'mul', 'sub', 'toRed', 'redPow', 'fromRed', 'toArrayLike', 'toString']) {
  BN.prototype[name] = unsupported
}
module.exports = BN
