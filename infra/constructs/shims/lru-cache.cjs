'use strict'
/**
 * Bundled in place of lru-cache 6 (an esbuild alias, api-function.ts), which with its yallist list is
 * about 8 KB of every function that opens a stored secret. Its one importer in the bundles is the
 * Encryption SDK's local materials cache (@aws-crypto/cache-material,
 * get_local_cryptographic_materials_cache.js), the cache lib/platform/crypto/materials.ts gives its
 * caching materials manager. That cache calls `new LRU({ max, dispose })`, set(key, value, maxAge),
 * get, peek, del and dumpLru().tail.value.key; this class does those as lru-cache 6 does, over a Map
 * whose insertion order is the recency order (first = least recently used): an entry older than its
 * maxAge is deleted (disposed) when read; get makes an entry the most recent, peek does not; set
 * disposes a value it replaces and, past `max` entries, the least recently used; del disposes. Any
 * other lru-cache method fails loudly rather than quietly. test/infra/bundle-encryption.test.ts
 * encrypts and decrypts through a bundle, through this cache.
 */
class LRU {
  constructor(options = {}) {
    if (typeof options === 'number') options = { max: options }
    if (options.max && (typeof options.max !== 'number' || options.max < 0))
      throw new TypeError('max must be a non-negative number')
    this.max = options.max || Infinity
    this.maxAge = options.maxAge || 0
    this.dispose = options.dispose
    this.entries = new Map()
  }
  stale(hit) {
    const maxAge = hit.maxAge || this.maxAge
    return maxAge ? Date.now() - hit.now > maxAge : false
  }
  remove(key) {
    const hit = this.entries.get(key)
    if (!hit) return
    this.entries.delete(key)
    if (this.dispose) this.dispose(key, hit.value)
  }
  read(key, use) {
    const hit = this.entries.get(key)
    if (!hit) return undefined
    if (this.stale(hit)) {
      this.remove(key)
      return undefined
    }
    if (use) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit.value
  }
  get(key) {
    return this.read(key, true)
  }
  peek(key) {
    return this.read(key, false)
  }
  set(key, value, maxAge) {
    maxAge = maxAge || this.maxAge
    if (maxAge && typeof maxAge !== 'number') throw new TypeError('maxAge must be a number')
    const old = this.entries.get(key)
    if (old) {
      this.entries.delete(key)
      if (this.dispose) this.dispose(key, old.value)
    }
    this.entries.set(key, { value, now: maxAge ? Date.now() : 0, maxAge: maxAge || 0 })
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break
      this.remove(oldest)
    }
    return true
  }
  del(key) {
    this.remove(key)
  }
  dumpLru() {
    const oldest = this.entries.keys().next()
    return { tail: oldest.done ? null : { value: { key: oldest.value } } }
  }
}
for (const name of ['has', 'forEach', 'rforEach', 'keys', 'values', 'dump', 'load', 'prune', 'reset']) {
  LRU.prototype[name] = () => {
    throw new Error(`lru-cache is not bundled (infra/constructs/shims/lru-cache.cjs): no ${name}`)
  }
}
module.exports = LRU
