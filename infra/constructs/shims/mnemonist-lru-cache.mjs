/**
 * Bundled in place of mnemonist/lru-cache (an esbuild alias, api-function.ts): about 5 KB of every
 * function with a DynamoDB client. Its one importer is the SDK's EndpointCache
 * (@aws-sdk/endpoint-cache), which every DynamoDB client builds for endpoint discovery (off unless
 * configured; the project never turns it on) and which calls new LRUCache(capacity), get, set, has,
 * peek and clear. This class does those as mnemonist's does, over a Map whose insertion order is the
 * recency order (first = least recently used): get makes an entry the most recent, peek does not,
 * set past the capacity evicts the least recently used. test/infra/bundles.test.ts loads the bundles.
 */
export default class LRUCache {
  #capacity
  #entries = new Map()

  constructor(capacity) {
    if (typeof capacity !== 'number' || capacity <= 0)
      throw new Error('mnemonist/lru-cache: capacity should be positive number.')
    this.#capacity = capacity
  }
  get size() {
    return this.#entries.size
  }
  has(key) {
    return this.#entries.has(key)
  }
  peek(key) {
    return this.#entries.get(key)
  }
  get(key) {
    if (!this.#entries.has(key)) return undefined
    const value = this.#entries.get(key)
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }
  set(key, value) {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value)
  }
  clear() {
    this.#entries.clear()
  }
}
