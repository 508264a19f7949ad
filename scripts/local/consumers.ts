import type { StreamConsumer } from './stream-drive.ts'

/**
 * The stream consumers the local stream drive runs: the same handler modules the CDK stack subscribes
 * to the table's stream (infra/constructs/history-indexer.ts).
 */
export async function localStreamConsumers(): Promise<StreamConsumer[]> {
  const indexer = await import('#functions/merchant/history-indexer.ts')
  return [{ name: 'history-indexer', handler: indexer.handler }]
}
