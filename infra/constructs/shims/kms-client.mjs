/**
 * Bundled in place of @aws-sdk/client-kms (an esbuild alias, api-function.ts). The Encryption SDK's
 * KMS keyring imports the aggregated `KMS` class, whose methods pull in every KMS command (about 45
 * KB of every function that opens a stored secret) to call three: generateDataKey, encrypt and
 * decrypt. This `KMS` is the SDK's own KMSClient with those three methods, each sending its command.
 * Imported by relative path so that the alias does not apply to it.
 * test/infra/bundle-encryption.test.ts runs field encryption through a bundle against a KMS stand-in.
 */
import {
  DecryptCommand,
  EncryptCommand,
  GenerateDataKeyCommand,
  KMSClient,
} from '../../../node_modules/@aws-sdk/client-kms/dist-es/index.js'

export class KMS extends KMSClient {
  generateDataKey(input) {
    return this.send(new GenerateDataKeyCommand(input))
  }
  encrypt(input) {
    return this.send(new EncryptCommand(input))
  }
  decrypt(input) {
    return this.send(new DecryptCommand(input))
  }
}

// Everything else as the package has it (the branch keystore names a few commands; unused ones are
// tree-shaken). The local KMS above takes precedence over the package's own.
export * from '../../../node_modules/@aws-sdk/client-kms/dist-es/index.js'
