'use strict'
/**
 * Bundled in place of asn1.js (an esbuild alias, api-function.ts): the Encryption SDK uses it only to
 * DER-encode and decode ECDSA signatures, for signed message formats the project never writes (about
 * 67 KB of every bundle that opens a stored secret). Defining the schema when the module loads works;
 * encoding or decoding fails, as opening a signed message then should (DecryptionFailed).
 */
const BN = require('bn.js')

const unsupported = () => {
  throw new Error('ECDSA-signed Encryption SDK messages are not supported: asn1.js is not bundled')
}
module.exports = {
  define: () => ({ encode: unsupported, decode: unsupported }),
  bignum: { BN },
}
