import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyActor, auditOfInvoice, auditOfSubject, auditPut } from '#lib/platform/audit/trail.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { cliOutput } from '../../support/cli.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { freshInvoiceNumber } from '../../support-invoices/requests.ts'
import { clearWebhook } from '../../support-invoices/webhook-receiver.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  // transmit delivers to the buyer's webhook when one is registered; with none it only records.
  await clearWebhook(DEV.clients.buyer.apiKey)
})
afterAll(() => api?.close())

/** Runs `npm run cli -- ...` as a person would (user `auditor`), against this file's table. */
const cli = (...args: string[]) => cliOutput({ ...api, env: { USER: 'auditor' } }, ...args)
/** The events of a `--json` listing (one JSON object per line, then a count line). */
const jsonLines = (out: string) =>
  out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))

const SI = apiKeyActor(DEV.clients.si.apiKey)
const APP = apiKeyActor(DEV.clients.app.apiKey)
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

/** An invoice of the dev supplier taken through its whole life: generate, validate, sign, transmit, pay. */
async function invoiceThroughItsLife(): Promise<string> {
  const generated: any = await clients.si.post('/api/v1/si/generate-irn', {
    invoice_number: freshInvoiceNumber('AUD'),
    service_id: DEV.supplier.serviceId,
    business_id: DEV.supplier.businessId,
    issuance_date: '20261121',
  })
  expect(generated.status).toBe(200)
  const irn: string = generated.body.irn
  const invoice = buildInvoice({ irn })
  expect((await clients.si.post('/api/v1/si/validate', invoice)).status).toBe(200)
  expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
  expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn })).status).toBe(200)
  const paid = await clients.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, {
    payment_status: 'PAID',
  })
  expect(paid.status).toBe(200)
  return irn
}

const invoiceEvent = (
  irn: string,
  type: string,
  actor: string,
  before: string | undefined,
  after: string,
): Record<string, unknown> => ({
  eventId: expect.stringMatching(/^\d{4}-.+Z#[0-9a-f]{12}$/),
  at: ISO,
  type,
  actor,
  subject: { kind: 'INVOICE', id: irn },
  businessId: DEV.supplier.businessId,
  ...(before ? { before } : {}),
  after,
})

describe('the audit trail of an invoice', () => {
  it('lists generate, validate, sign, transmit and the payment update in order, each with its actor', async () => {
    const irn = await invoiceThroughItsLife()
    const events = await auditOfInvoice(irn)
    expect(events).toEqual([
      invoiceEvent(irn, 'INVOICE_GENERATED', SI, undefined, 'GENERATED'),
      invoiceEvent(irn, 'INVOICE_VALIDATED', SI, 'GENERATED', 'VALIDATED'),
      invoiceEvent(irn, 'INVOICE_SIGNED', APP, 'VALIDATED', 'SIGNED'),
      invoiceEvent(irn, 'INVOICE_TRANSMITTED', APP, 'SIGNED', 'TRANSMITTED'),
      invoiceEvent(irn, 'PAYMENT_STATUS_CHANGED', APP, 'PENDING', 'PAID'),
    ])
    const times = events.map((e) => e.at)
    expect([...times].sort()).toEqual(times)
  })

  it('records nothing for a request that changes nothing (the same update or transmit again)', async () => {
    const irn = await invoiceThroughItsLife()
    const again = await clients.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, {
      payment_status: 'PAID',
    })
    expect(again.status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn })).status).toBe(200)
    expect((await auditOfInvoice(irn)).map((e) => e.type)).toEqual([
      'INVOICE_GENERATED',
      'INVOICE_VALIDATED',
      'INVOICE_SIGNED',
      'INVOICE_TRANSMITTED',
      'PAYMENT_STATUS_CHANGED',
    ])
  })

  it('names API clients by an id that is not the key: the stored items never hold a full API key', async () => {
    const irn = await invoiceThroughItsLife()
    const raw = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.auditSubjectPartition('INVOICE', irn) },
      }),
    )
    const text = JSON.stringify(raw.Items)
    expect(raw.Items).toHaveLength(5)
    expect(text).not.toContain(DEV.clients.si.apiKey)
    expect(text).not.toContain(DEV.clients.app.apiKey)
    expect(SI).toMatch(new RegExp(`^apikey:${DEV.clients.si.apiKey.slice(0, 4)}:[0-9a-f]{16}$`))
  })

  it('is printed in time order by `audit invoice` and found under the business by `audit business`', async () => {
    const irn = await invoiceThroughItsLife()
    const table = await cli('audit', 'invoice', '--irn', irn)
    const lines = table.trim().split('\n')
    expect(lines).toEqual([
      `5 events for invoice ${irn}`,
      expect.stringMatching(new RegExp(`Z  INVOICE_GENERATED +${SI}  INVOICE:${irn} - -> GENERATED$`)),
      expect.stringMatching(
        new RegExp(`Z  INVOICE_VALIDATED +${SI}  INVOICE:${irn} GENERATED -> VALIDATED$`),
      ),
      expect.stringMatching(new RegExp(`Z  INVOICE_SIGNED +${APP}  INVOICE:${irn} VALIDATED -> SIGNED$`)),
      expect.stringMatching(
        new RegExp(`Z  INVOICE_TRANSMITTED +${APP}  INVOICE:${irn} SIGNED -> TRANSMITTED$`),
      ),
      expect.stringMatching(new RegExp(`Z  PAYMENT_STATUS_CHANGED +${APP}  INVOICE:${irn} PENDING -> PAID$`)),
    ])
    const business = jsonLines(await cli('audit', 'business', '--id', DEV.supplier.businessId, '--json'))
    const mine = business.filter((e) => e.subject.id === irn)
    expect(mine.map((e) => e.type)).toEqual([
      'INVOICE_GENERATED',
      'INVOICE_VALIDATED',
      'INVOICE_SIGNED',
      'INVOICE_TRANSMITTED',
      'PAYMENT_STATUS_CHANGED',
    ])
    const times = business.map((e) => e.eventId as string)
    expect([...times].sort()).toEqual(times)
  }, 60_000)

  it('says so when an invoice has no events, and exits 1 (a mistyped IRN must not look like success)', async () => {
    await expect(cli('audit', 'invoice', '--irn', 'NONE1-94ND90NR-20261121')).rejects.toMatchObject({
      code: 1,
      stdout: '0 events for invoice NONE1-94ND90NR-20261121\n',
      stderr: expect.stringContaining('No events are recorded for invoice NONE1-94ND90NR-20261121'),
    })
  }, 30_000)
})

describe('audit items', () => {
  it('cannot be overwritten: a second put with the same key fails its condition', async () => {
    const irn = await invoiceThroughItsLife()
    const [first] = await auditOfInvoice(irn)
    const forged = auditPut({
      type: 'INVOICE_GENERATED',
      actor: 'forger',
      subject: { kind: 'INVOICE', id: irn },
    }).Put
    await expect(
      db().send(
        new PutCommand({
          ...forged,
          Item: { ...forged.Item, ...keys.auditEvent('INVOICE', irn, first!.eventId) },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' })
    expect((await auditOfInvoice(irn))[0]).toEqual(first)
  })
})

describe('credential changes through the CLI', () => {
  it('appear in `audit business` with the CLI user as actor: issue, rotate, webhook, revoke', async () => {
    const business = JSON.parse(
      (await cli('business', 'create', '--name', 'Audit Test Ltd', '--tin', '55555555-0007')).replace(
        /^[^{]*/,
        '',
      ),
    )
    const id: string = business.business_id
    const issuedOut = await cli('client', 'issue', '--business', id, '--roles', 'SI,APP')
    const issued = JSON.parse(issuedOut.slice(issuedOut.indexOf('{'), issuedOut.lastIndexOf('}') + 1))
    await cli('client', 'rotate', '--key', issued.api_key)
    await cli('client', 'set-webhook', '--key', issued.api_key, '--url', 'https://93.184.215.14/x')
    await cli('client', 'revoke', '--key', issued.api_key)

    const out = await cli('audit', 'business', '--id', id, '--json')
    const credential = apiKeyActor(issued.api_key)
    expect(jsonLines(out)).toEqual([
      {
        eventId: expect.any(String),
        at: ISO,
        type: 'BUSINESS_CREATED',
        actor: 'cli:auditor',
        subject: { kind: 'CREDENTIAL', id: `business:${id}` },
        businessId: id,
        detail: { kind: 'business' },
      },
      ...[
        ['CREDENTIAL_ISSUED', { kind: 'api-client', roles: 'SI,APP' }],
        ['CREDENTIAL_ROTATED', { kind: 'api-client' }],
        ['WEBHOOK_SET', { kind: 'api-client', webhook: 'https://93.184.215.14/x' }],
        ['CREDENTIAL_REVOKED', { kind: 'api-client' }],
      ].map(([type, detail]) => ({
        eventId: expect.any(String),
        at: ISO,
        type,
        actor: 'cli:auditor',
        subject: { kind: 'CREDENTIAL', id: credential },
        businessId: id,
        detail,
      })),
    ])
    expect(out).not.toContain(issued.api_key)
    expect(out).not.toContain(issued.api_secret)
    expect(out).toContain(`5 events for business ${id}`)
  }, 90_000)
})

describe('notification template changes', () => {
  it('record a create and a replace with the admin key id as actor', async () => {
    const created: any = await clients.notify.post('/notification/template', {
      message: 'Paid {{amount}}',
      messageType: 0,
      productCode: 'AUDITED',
    })
    expect(created.status).toBe(201)
    const templateId: number = created.body.data.templateID
    const replaced = await clients.notify.request('PUT', `/notification/template/${templateId}`, {
      message: 'Received {{amount}}',
      messageType: 0,
      productCode: 'AUDITED',
      version: 1,
    })
    expect(replaced.status).toBe(200)
    expect(await auditOfSubject('TEMPLATE', String(templateId))).toEqual([
      {
        eventId: expect.any(String),
        at: ISO,
        type: 'TEMPLATE_CREATED',
        actor: `admin:${DEV.notifyAdmin.adminKeyId}`,
        subject: { kind: 'TEMPLATE', id: String(templateId) },
        after: 'v1 AUDITED/0',
      },
      {
        eventId: expect.any(String),
        at: ISO,
        type: 'TEMPLATE_REPLACED',
        actor: `admin:${DEV.notifyAdmin.adminKeyId}`,
        subject: { kind: 'TEMPLATE', id: String(templateId) },
        before: 'v1 AUDITED/0',
        after: 'v2 AUDITED/0',
      },
    ])
  })

  it('record e-mail list changes with the admin key id as actor', async () => {
    const email = `audit-${Date.now()}@example.com`
    expect((await clients.notify.post('/notification/email', { email: [email] })).status).toBeLessThan(300)
    expect(
      (await clients.notify.request('DELETE', '/notification/email', { email: [email] })).status,
    ).toBeLessThan(300)
    const events = await auditOfSubject('NOTIFY', 'emails')
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'NOTIFY_EMAILS_ADDED',
        actor: 'admin:dev-notify',
        detail: { count: 1 },
      }),
      expect.objectContaining({
        type: 'NOTIFY_EMAILS_REMOVED',
        actor: 'admin:dev-notify',
        detail: { count: 1 },
      }),
    ])
  })
})
