import { randomUUID } from 'node:crypto'
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2'
import { marshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda'
import { mockClient } from 'aws-sdk-client-mock'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { handler } from '#functions/notifications/outbox-sender.ts'
import { inMode } from '#lib/platform/mode.ts'
import { getOutboxItem, listOutbox, type OutboxItem } from '#lib/notifications/outbox.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  await clients.notify.post('/notification/template', {
    productCode: 'OUTBOX',
    messageType: 0,
    message:
      'Paid NGN {{amount}} for {{ merchantReference }} ({{providerReference}}): {{status}} at {{completedAt}}. Dear {{customerName}}',
  })
  await clients.notify.post('/notification/template', {
    productCode: 'OUTBOX',
    messageType: 1,
    message: 'Declined {{amount}} for {{merchantReference}}: {{status}} {{responseCode}}',
  })
})
afterAll(() => api?.close())

async function transferred(overrides: Record<string, unknown> = {}) {
  const body = transferBody({ merchantId: 'MRC0002', amount: 1500, productCode: 'OUTBOX', ...overrides })
  const reply = await clients.switch.post<{
    providerReference: string
    completedAt: string
    responseCode: string
  }>('/api/v1/transactions/transfer', body)
  expect(reply.status).toBe(200)
  return { body, reply: reply.body }
}

/** The stream record DynamoDB would deliver for the item's insertion (NEW_IMAGE view). */
function insertEvent(item: object, sequence = String(Date.now())): DynamoDBStreamEvent {
  const record: DynamoDBRecord = {
    eventID: randomUUID(),
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: marshall({ pk: (item as OutboxItem).pk, sk: (item as OutboxItem).sk }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      SequenceNumber: sequence,
      StreamViewType: 'NEW_IMAGE',
    },
  }
  return { Records: [record] }
}

describe('outcome notifications', () => {
  it('writes exactly one rendered outbox item for a successful transfer, listing unknown placeholders', async () => {
    const { body, reply } = await transferred()
    expect(reply.responseCode).toBe('00')
    const mine = (await listOutbox('MRC0002')).filter((o) => o.providerReference === reply.providerReference)
    expect(mine).toHaveLength(1)
    expect(mine[0]).toMatchObject({
      status: 'PENDING',
      merchantId: 'MRC0002',
      requestId: body.requestId,
      transactionStatus: 'SUCCESSFUL',
      productCode: 'OUTBOX',
      messageType: 0,
      templateVersion: 1,
      subject: `Transaction SUCCESSFUL: ${reply.providerReference} (product OUTBOX)`,
      body: `Paid NGN 1500.00 for ${body.merchantReference} (${reply.providerReference}): SUCCESSFUL at ${reply.completedAt}. Dear {{customerName}}`,
      unknownPlaceholders: ['customerName'],
    })
    // A repeated requestId moves no money and writes no second notification.
    await clients.switch.post('/api/v1/transactions/transfer', body)
    expect(
      (await listOutbox('MRC0002')).filter((o) => o.providerReference === reply.providerReference),
    ).toHaveLength(1)
  })

  it('renders the failure template (messageType 1) for a declined transfer', async () => {
    const { body, reply } = await transferred({ accountNumber: '0987654321', amount: 999 })
    expect(reply.responseCode).toBe('51')
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({
      transactionStatus: 'FAILED',
      messageType: 1,
      body: `Declined 999.00 for ${body.merchantReference}: FAILED 51`,
      unknownPlaceholders: [],
    })
  })

  it('writes no outbox item when the product has no template', async () => {
    const { reply } = await transferred({ productCode: 'NO-TEMPLATE' })
    expect(reply.responseCode).toBe('00')
    expect(await getOutboxItem(reply.providerReference)).toBeUndefined()
  })
})

describe('functions/notifications/outbox-sender.ts (DynamoDB stream handler)', () => {
  const ses = mockClient(SESv2Client)
  afterEach(() => {
    ses.reset()
    delete process.env.SES_FROM_ADDRESS
  })

  it('marks an item SKIPPED when the admin e-mail list is empty', async () => {
    const { reply } = await transferred()
    const item = (await getOutboxItem(reply.providerReference))!
    expect(await handler(insertEvent(item))).toEqual({ batchItemFailures: [] })
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({
      status: 'SKIPPED',
      recipients: [],
      messageIds: [],
    })
  })

  it('sends through the logging sender locally and marks the item SENT once, however often it is delivered', async () => {
    await clients.notify.post('/notification/email', { email: ['ops@example.com'] })
    const { reply } = await transferred()
    const item = (await getOutboxItem(reply.providerReference))!
    const event = insertEvent(item)
    const results = await Promise.all([handler(event), handler(event), handler(event)])
    expect(results).toEqual(Array(3).fill({ batchItemFailures: [] }))
    const sent = (await getOutboxItem(reply.providerReference))!
    expect(sent).toMatchObject({
      status: 'SENT',
      recipients: ['ops@example.com'],
      messageIds: [expect.stringMatching(/^local-/)],
    })
    await handler(event)
    expect(await getOutboxItem(reply.providerReference)).toEqual(sent)
  })

  it('sends through SES to every admin address exactly once when SES_FROM_ADDRESS is set', async () => {
    process.env.SES_FROM_ADDRESS = 'notifications@bank.example'
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-message-1' })
    await clients.notify.post('/notification/email', { email: ['finance@example.com'] })
    const { reply } = await transferred()
    const item = (await getOutboxItem(reply.providerReference))!
    const event = insertEvent(item)
    await Promise.all([handler(event), handler(event)])
    await handler(event)
    const calls = ses.commandCalls(SendEmailCommand)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'notifications@bank.example',
      Destination: { ToAddresses: ['finance@example.com', 'ops@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: item.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: item.body, Charset: 'UTF-8' } },
        },
      },
    })
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({
      status: 'SENT',
      messageIds: ['ses-message-1'],
    })
  })

  it("never e-mails a test-mode transfer's notification to the operator's list: it is marked SKIPPED", async () => {
    process.env.SES_FROM_ADDRESS = 'notifications@bank.example'
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-message-2' })
    const testSwitch = testModeClients(api.url).switch
    const body = transferBody({
      merchantId: 'MRC0002',
      amount: 1500,
      productCode: 'OUTBOX',
      accountNumber: '1000000000',
    })
    const reply = await testSwitch.post<{ providerReference: string }>('/api/v1/transactions/transfer', body)
    expect(reply.status).toBe(200)
    const ref = reply.body.providerReference
    // Written in the transfer's mode, as every record of it is; the live keys hold nothing of it.
    expect(await getOutboxItem(ref)).toBeUndefined()
    const item = (await inMode('test', () => getOutboxItem(ref)))!
    expect(item.body).toContain('Paid NGN')
    expect(await handler(insertEvent(item))).toEqual({ batchItemFailures: [] })
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0)
    expect(await inMode('test', () => getOutboxItem(ref))).toMatchObject({
      status: 'SKIPPED',
      recipients: [],
    })
  })

  it('reports a failed send for retry, and sends it on the redelivery', async () => {
    process.env.SES_FROM_ADDRESS = 'notifications@bank.example'
    ses
      .on(SendEmailCommand)
      .rejectsOnce(new Error('SES is throttling'))
      .resolves({ MessageId: 'ses-message-2' })
    const { reply } = await transferred()
    const item = (await getOutboxItem(reply.providerReference))!
    const event = insertEvent(item, '000123')
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: '000123' }] })
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({ status: 'PENDING' })
    expect(await handler(event)).toEqual({ batchItemFailures: [] })
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({
      status: 'SENT',
      messageIds: ['ses-message-2'],
    })
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(2)
  })

  it('ignores stream records that are not outbox insertions', async () => {
    const { reply } = await transferred()
    const item = (await getOutboxItem(reply.providerReference))!
    const modify = insertEvent(item)
    modify.Records[0]!.eventName = 'MODIFY'
    const other = insertEvent({ pk: 'ACCOUNT#0123456789', sk: 'ACCOUNT', entity: 'ACCOUNT' })
    expect(await handler({ Records: [...modify.Records, ...other.Records] })).toEqual({
      batchItemFailures: [],
    })
    expect(await getOutboxItem(reply.providerReference)).toMatchObject({ status: 'PENDING' })
  })
})
