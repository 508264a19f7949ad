import { currentMode } from '#lib/platform/mode.ts'
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs'
import { checkAwsCall } from '#lib/platform/aws-guard.ts'

/**
 * Sending work to a queue (lib/service/consumers.ts names the queues and their consumers). In AWS the
 * queue's URL is in the function's environment (set by the CDK stack) and the message goes to SQS;
 * locally scripts/local/workers.ts installs its in-process queue, which invokes the same consumer
 * module with the same SQS event. The sender never knows which.
 */
export type QueueName = 'webhook-deliveries' | 'webhook-test-deliveries' | 'webhook-recoveries' | 'batch-jobs'

/** The environment variable holding each queue's URL in AWS. */
export const QUEUE_URL_ENV: Record<QueueName, string> = {
  'webhook-deliveries': 'WEBHOOK_QUEUE_URL',
  'webhook-test-deliveries': 'WEBHOOK_TEST_QUEUE_URL',
  'webhook-recoveries': 'WEBHOOK_RECOVERY_QUEUE_URL',
  'batch-jobs': 'BATCH_QUEUE_URL',
}

/** SQS's longest message delay; longer waits are made of several hops (lib/webhooks/delivery-worker.ts). */
export const MAX_DELAY_SECONDS = 900

export interface QueueTransport {
  send(queue: QueueName, body: string, delaySeconds: number): Promise<void>
}

/**
 * Installed by the local runner only. Kept on the process's global object, not in this module: a
 * function served from its Lambda bundle (`npm start -- --bundles`, the CI's bundles run) carries its
 * own copy of this module, and must still find the queue the runner installed.
 */
const LOCAL_QUEUES = Symbol.for('einvoicing.localQueues')
const holder = globalThis as { [LOCAL_QUEUES]?: QueueTransport }
export function useLocalQueues(transport: QueueTransport | undefined): void {
  holder[LOCAL_QUEUES] = transport
}

let sqs: SQSClient | undefined

/** The field every message carries its sender's mode in (lib/platform/mode.ts); queueHandler takes it off. */
export const MODE_FIELD = 'mode'

export async function sendMessage(queue: QueueName, body: object, delaySeconds = 0): Promise<void> {
  const delay = Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil(delaySeconds)))
  const text = JSON.stringify({ ...body, [MODE_FIELD]: currentMode() })
  checkAwsCall({ service: 'sqs', action: 'SendMessage', queue })
  const url = process.env[QUEUE_URL_ENV[queue]]
  if (url) {
    sqs ??= new SQSClient({})
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: text, DelaySeconds: delay }))
    return
  }
  const local = holder[LOCAL_QUEUES]
  if (local) return local.send(queue, text, delay)
  throw new Error(
    `${QUEUE_URL_ENV[queue]} is not set and no local queue runs: cannot queue work for ${queue}`,
  )
}
