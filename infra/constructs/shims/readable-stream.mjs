/**
 * Bundled in place of readable-stream 3 (an esbuild alias, api-function.ts), the copy of Node 10's
 * streams that the Encryption SDK's encryptor and decryptor (@aws-crypto/encrypt-node, decrypt-node)
 * and duplexify import: about 37 KB of every function that opens a stored secret, where Node 22's own
 * streams are already loaded. They take `Transform`, `PassThrough`, `finished` and `pipeline` from it,
 * duplexify `Duplex` and `Readable`; Node's are the same classes (function constructors, so duplexify's
 * `Duplex.call(this)` works) but for one call: readable-stream's `pipeline` takes its callback as
 * optional and the SDK's encryptor calls it without one, which Node's refuses (ERR_INVALID_ARG_TYPE),
 * so that pipeline gets a no-op callback here, as readable-stream gives it; errors still reach the
 * SDK through the streams' own `error` events and `finished`. Node's streams destroy themselves
 * when done (autoDestroy), readable-stream 3's do not: the SDK reads each stream to its end first.
 * test/infra/bundle-encryption.test.ts seals and opens values of one and several frames through a
 * bundle, both ways with the real packages, and damaged values, which must fail and not hang.
 */
import * as stream from 'node:stream'

export { Duplex, PassThrough, Readable, Stream, Transform, Writable, finished } from 'node:stream'

const noop = () => {}

export const pipeline = (...streams) =>
  typeof streams.at(-1) === 'function' ? stream.pipeline(...streams) : stream.pipeline(...streams, noop)

export default { ...stream, pipeline }
