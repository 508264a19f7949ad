import { queueHandler } from '#lib/platform/async/handlers.ts'
import { type RecoveryMessage, recoverPage } from '#lib/webhooks/recovery.ts'

/** The webhook-recoveries queue -> one page of a recovery task's window (lib/service/consumers.ts). */
export const handler = queueHandler<RecoveryMessage>('webhook-recover', recoverPage)
