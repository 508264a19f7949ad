/**
 * Bundled in place of @smithy/core/checksum (an esbuild alias, api-function.ts): the SDK clients
 * import `Sha256` from it (request signing, SigV4), and its Node class keeps a pure-JavaScript SHA-256
 * as the fallback for a Node without crypto, which Lambda never is: about 3.5 KB of every function.
 * This `Sha256` is the same contract over node:crypto: `new Sha256(secret?)` (an HMAC when given a
 * secret), update(data), async digest() -> Uint8Array (a plain hash may be digested again, an HMAC
 * once), reset(). `Crc32` (the event-stream codec's, itself shimmed out) and `Md5` (S3's, never
 * bundled) are the same shape over node:zlib and node:crypto. test/infra/bundles.test.ts checks each
 * against node:crypto directly.
 */
import { createHash, createHmac } from 'node:crypto'
import { crc32 } from 'node:zlib'

const bytes = (data) =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : Buffer.from(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength ?? data.length)

const asUint8 = (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)

class NodeHash {
  constructor(algorithm, secret) {
    this.algorithm = algorithm
    this.secret = secret
    this.reset()
  }
  reset() {
    this.hash = this.secret ? createHmac(this.algorithm, bytes(this.secret)) : createHash(this.algorithm)
    this.finished = false
  }
  update(data) {
    if (this.finished) throw new Error('Attempted to update an already finished hash.')
    this.hash.update(bytes(data))
  }
  async digest() {
    if (this.secret) {
      this.finished = true
      return asUint8(this.hash.digest())
    }
    return asUint8(this.hash.copy().digest())
  }
}

export class Sha256 extends NodeHash {
  digestLength = 32
  constructor(secret) {
    super('sha256', secret)
  }
}

export class Md5 extends NodeHash {
  digestLength = 16
  constructor() {
    super('md5')
  }
}

export class Crc32 {
  value = 0
  update(data) {
    this.value = crc32(bytes(data), this.value)
  }
  async digest() {
    const out = new Uint8Array(4)
    new DataView(out.buffer).setUint32(0, this.value >>> 0)
    return out
  }
  reset() {
    this.value = 0
  }
}
