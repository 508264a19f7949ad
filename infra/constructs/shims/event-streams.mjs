/**
 * Bundled in place of @smithy/core/event-streams (an esbuild alias, api-function.ts). The SDK's HTTP
 * protocols import it, when an operation first reads or writes an event stream, to encode and decode
 * the stream's messages: about 15 KB of every bundle. No operation the functions call (DynamoDB, KMS,
 * Secrets Manager, SES, SQS) has an event stream, so it is never loaded; should one
 * ever be, it fails with this message rather than quietly. test/infra/bundles.test.ts holds both.
 */
const notBundled = () => {
  throw new Error(
    'AWS SDK event streams are not bundled (infra/constructs/shims/event-streams.mjs): this operation needs @smithy/core/event-streams',
  )
}

export class EventStreamSerde {
  constructor() {
    notBundled()
  }
}

export const eventStreamSerdeProvider = notBundled
