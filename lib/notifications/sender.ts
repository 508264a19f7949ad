import { currentMode } from '#lib/platform/mode.ts'
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2'
import { checkAwsCall } from '#lib/platform/aws-guard.ts'
import { logger } from '#lib/platform/log.ts'
import { listEmails } from './emails.ts'
import { claim, finish, type OutboxItem, release } from './outbox.ts'

/** Sends one message to some addresses; returns the provider's message id. */
export interface EmailSender {
  readonly name: string
  send(message: { to: string[]; subject: string; body: string }): Promise<string>
}

/** SES (v2 API) from a verified identity. At most 50 recipients per message, an SES limit. */
export class SesEmailSender implements EmailSender {
  readonly name = 'ses'
  constructor(
    private readonly from: string,
    private readonly client: SESv2Client = new SESv2Client({}),
    private readonly configurationSet?: string,
  ) {}

  async send(message: { to: string[]; subject: string; body: string }): Promise<string> {
    checkAwsCall({ service: 'ses', action: 'SendEmail' })
    const out = await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: message.to },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.body, Charset: 'UTF-8' } },
          },
        },
        ...(this.configurationSet ? { ConfigurationSetName: this.configurationSet } : {}),
      }),
    )
    return out.MessageId ?? ''
  }
}

/** Locally (no SES_FROM_ADDRESS): the message goes to the log instead of a mailbox. */
export class LoggingEmailSender implements EmailSender {
  readonly name = 'log'
  private count = 0
  async send(message: { to: string[]; subject: string; body: string }): Promise<string> {
    const id = `local-${Date.now()}-${++this.count}`
    logger.info('notification e-mail (not sent: SES_FROM_ADDRESS is not set)', { messageId: id, ...message })
    return id
  }
}

let sesClient: SESv2Client | undefined
const loggingSender = new LoggingEmailSender()

/** SES when SES_FROM_ADDRESS is set (in AWS), otherwise the logging sender. The SES client is made once per container. */
export function emailSenderFromEnv(env: NodeJS.ProcessEnv = process.env): EmailSender {
  if (!env.SES_FROM_ADDRESS) return loggingSender
  sesClient ??= new SESv2Client({})
  return new SesEmailSender(env.SES_FROM_ADDRESS, sesClient, env.SES_CONFIGURATION_SET || undefined)
}

const SES_MAX_RECIPIENTS = 50

export type DeliveryOutcome = 'sent' | 'skipped' | 'already-taken'

/**
 * Delivers one outbox item exactly once: claim it (PENDING -> SENDING, conditional), send to the admin
 * e-mail list, mark it SENT. A second delivery of the same stream record finds it claimed or sent and
 * does nothing. If sending fails the claim is released and the error rethrown, so the stream retries.
 */
export async function deliver(
  item: Pick<OutboxItem, 'providerReference' | 'subject' | 'body'>,
  sender: EmailSender,
): Promise<DeliveryOutcome> {
  if (!(await claim(item.providerReference))) return 'already-taken'
  const recipients: string[] = []
  const messageIds: string[] = []
  try {
    // The admin list is the operator's: sandbox traffic (CONTRACT section 15) never reaches it.
    if (currentMode() === 'live') recipients.push(...(await listEmails()))
    for (let i = 0; i < recipients.length; i += SES_MAX_RECIPIENTS) {
      messageIds.push(
        await sender.send({
          to: recipients.slice(i, i + SES_MAX_RECIPIENTS),
          subject: item.subject,
          body: item.body,
        }),
      )
    }
  } catch (error) {
    // Nothing (or not everything) went out: give the item back for the stream's retry.
    await release(item.providerReference).catch(() => undefined)
    throw error
  }
  // Sent: from here on the item is never given back, so a failure below can never cause a second send
  // (a redelivery finds it SENDING and leaves it; the log line keeps the message ids).
  const status = recipients.length ? 'SENT' : 'SKIPPED'
  if (!recipients.length && currentMode() === 'live')
    logger.warn('notification not sent: the admin e-mail list is empty', {
      providerReference: item.providerReference,
    })
  await finish(item.providerReference, { status, recipients, messageIds, sentAt: new Date().toISOString() })
  return recipients.length ? 'sent' : 'skipped'
}
