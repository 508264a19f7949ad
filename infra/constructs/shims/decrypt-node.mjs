/**
 * Bundled in place of @aws-crypto/decrypt-node (an esbuild alias, api-function.ts). The package's
 * index re-exports buildDecrypt from decrypt_client.js, and that module ends with a statement that
 * runs when it loads: `decryptUnsignedMessageStream({})`, left over from a type check, which builds a
 * whole decrypt stream pipeline (and opens process.stdout) at every cold start of every function that
 * opens a stored secret, for nothing. This buildDecrypt gives what lib/platform/crypto/fields.ts takes from it,
 * `decrypt`, over the package's own `_decrypt` with the package's signature policy for it (signed
 * and unsigned messages both accepted; the commitment policy and key limit are the caller's). The
 * package's index is not imported, so that module never loads. Imported by relative path so that
 * the alias does not apply to it; test/infra/bundle-encryption.test.ts decrypts through a bundle.
 */
import { SignaturePolicy } from '@aws-crypto/material-management-node'
import { _decrypt } from '../../../node_modules/@aws-crypto/decrypt-node/build/module/src/decrypt.js'

export function buildDecrypt({ commitmentPolicy, maxEncryptedDataKeys = false }) {
  if (!commitmentPolicy)
    throw new Error('buildDecrypt: state the commitment policy (lib/platform/crypto/fields.ts)')
  const parameters = {
    signaturePolicy: SignaturePolicy.ALLOW_ENCRYPT_ALLOW_DECRYPT,
    clientOptions: { commitmentPolicy, maxEncryptedDataKeys },
  }
  return { decrypt: (cmm, ciphertext, options) => _decrypt(parameters, cmm, ciphertext, options) }
}
