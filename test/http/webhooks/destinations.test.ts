import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setWebhook } from '#lib/platform/auth/credentials.ts'
import { encryptField } from '#lib/platform/crypto/fields.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { newWebhookSecret } from '#lib/webhooks/signature.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { runCli } from '../../support/cli.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'
import {
  clearWebhook,
  deadWebhookUrl,
  startWebhookReceiver,
} from '../../support-invoices/webhook-receiver.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

/**
 * CONTRACT section 14, the destination policy and what replies disclose: a tenant's webhook URL may
 * point only at public addresses, at creation and at the moment of each connection, and no reply
 * tells one tenant another's settings or the service's internals.
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '30s'

let api: TestApi
let clients: DevClients
const closers: (() => Promise<unknown> | unknown)[] = []
beforeAll(async () => {
  api = await startApi({ workers: ['webhook-fan-out', 'webhook-deliver'] })
  clients = devClients(api.url)
})
afterAll(async () => {
  for (const close of closers) await close()
  await api?.close()
})

/** Every numeric and named form of a non-public address a hostile tenant might try, and other refusals. */
const HOSTILE = [
  'https://127.0.0.1/hooks',
  'https://0x7f000001/',
  'https://2130706433/',
  'https://0177.0.0.1/',
  'https://127.1/',
  'https://0x7f.0.0.1/',
  'https://%31%32%37.0.0.1/',
  'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'https://10.0.0.5/',
  'https://172.16.0.1/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://192.0.2.1/',
  'https://198.51.100.7/',
  'https://203.0.113.9/',
  'https://[::1]/',
  'https://[::]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[::127.0.0.1]/',
  'https://[64:ff9b::a00:5]/',
  'https://[2002:a00:5::1]/',
  'https://[fc00::1]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://[ff02::1]/',
  'https://[2001:db8::1]/',
  // Names: resolved at creation, every address checked.
  'https://localhost/',
  'https://localhost:8443/x',
  'https://no-such-host.invalid/',
  // Schemes and forms.
  'http://10.0.0.5/',
  'http://example.com/',
  'http://169.254.169.254/',
  'ftp://127.0.0.1/',
  'file:///etc/passwd',
  'https://user:password@93.184.215.14/',
]

describe('POST /api/v1/webhooks: the destination policy at creation', () => {
  it('refuses every loopback, private, link-local, CGNAT, unspecified, multicast, documentation and numeric form (400, saying why)', async () => {
    const replies = await Promise.all(
      HOSTILE.map(async (url) => {
        const reply = await clients.admin.post<any>('/api/v1/webhooks', { url, events: ['invoice.signed'] })
        return { url, status: reply.status, message: String(reply.body.message ?? '') }
      }),
    )
    expect(replies.filter((r) => r.status !== 400)).toEqual([])
    for (const r of replies)
      expect(r.message, r.url).toMatch(/public addresses|https:\/\/|does not resolve|user name/)
    // The reason is actionable: it names the range.
    expect(replies.find((r) => r.url.startsWith('https://169.254'))!.message).toMatch(/link-local/)
    expect(replies.find((r) => r.url === 'https://0x7f000001/')!.message).toMatch(/loopback/)
    expect(replies.find((r) => r.url === 'https://localhost/')!.message).toMatch(
      /resolves to 127\.0\.0\.1, which is loopback/,
    )
    // Nothing was made.
    expect((await clients.admin.get<any>('/api/v1/webhooks')).body.data).toEqual([])
  })

  it('accepts https:// to a public address, and the local server its own loopback over http://', async () => {
    for (const url of [
      'https://93.184.215.14/hooks',
      'http://127.0.0.1:9/hooks',
      'http://localhost:9/x',
      'http://[::1]:9/y',
    ]) {
      const reply = await clients.admin.post<any>('/api/v1/webhooks', { url, events: ['batch.completed'] })
      expect(reply.status, url).toBe(201)
      expect((await clients.admin.request('DELETE', `/api/v1/webhooks/${reply.body.data.id}`)).status).toBe(
        204,
      )
    }
  })

  it('refuses the same hostile URLs as a client webhook set with the CLI', async () => {
    const refused = await runCli(
      api,
      'client',
      'set-webhook',
      '--key',
      DEV.clients.other.apiKey,
      '--url',
      'https://169.254.169.254/',
    )
    expect(refused.code).not.toBe(0)
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/link-local/)
    await expect(setWebhook(DEV.clients.other.apiKey, 'http://10.0.0.5/hooks')).rejects.toThrow(/https/)
    await expect(setWebhook(DEV.clients.other.apiKey, 'https://[::ffff:10.0.0.5]/')).rejects.toThrow(
      /private/,
    )
  })
})

/** A TCP server that counts connections (and answers nothing): was anything sent to it at all? */
async function countingServer(): Promise<{ port: number; connections: () => number }> {
  let count = 0
  const server: Server = createServer((socket) => {
    count++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(resolve)))
  return { port: (server.address() as AddressInfo).port, connections: () => count }
}

/** A subscription stored as one made before the policy (or whose name's DNS changed since) would be. */
async function storedSubscription(url: string, events: string[]): Promise<string> {
  const id = `wh_${crypto.randomUUID().replaceAll('-', '')}`
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.webhookSubscription(DEV.supplier.businessId, id),
        entity: 'WEBHOOK_SUBSCRIPTION',
        id,
        businessId: DEV.supplier.businessId,
        url,
        events,
        status: 'ACTIVE',
        secret: await encryptField(newWebhookSecret(), {
          record: 'webhook-subscription',
          id,
          field: 'secret',
        }),
        createdAt: new Date(Date.now() - 60_000).toISOString(),
      },
    }),
  )
  return id
}

describe('delivery: the address connected to is checked, and the log says only what happened', () => {
  it('never connects to a name that resolves to a loopback address, nor to an address literal of one', async () => {
    const target = await countingServer()
    const byName = await storedSubscription(`https://localhost:${target.port}/hooks`, ['invoice.validated'])
    const byHex = await storedSubscription(`https://0x7f000001:${target.port}/hooks`, ['invoice.validated'])
    const dead = await storedSubscription(await deadWebhookUrl(), ['invoice.validated'])
    expect((await clients.si.post('/api/v1/si/validate', buildInvoice())).status).toBe(200)

    const firstAttempt = async (id: string) =>
      eventually(async () => {
        const reply = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries`)
        expect(reply.body.data.content[0]?.log).toHaveLength(1)
        return reply.body.data.content[0]
      })
    for (const id of [byName, byHex]) {
      const delivery = await firstAttempt(id)
      expect(delivery.log[0]).toEqual({
        at: expect.any(String),
        status: null,
        error: 'destination not allowed',
      })
      expect(delivery.last_error).toBe('destination not allowed')
    }
    // A refused connection is a class, not ECONNREFUSED with a time in ms.
    const refused = await firstAttempt(dead)
    expect(refused.log[0]).toEqual({ at: expect.any(String), status: null, error: 'connection refused' })
    expect(target.connections()).toBe(0)
  })
})

describe('replies disclose nothing of another business, nor of the service', () => {
  it("transmit says whether the buyer's system is up, never its URL, name or why", async () => {
    const buyerHook = await startWebhookReceiver({
      secret: DEV.clients.buyer.secret,
      target: '/private/einvoice?token=buyer-own-token',
    })
    closers.push(() => buyerHook.close())
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const up: any = await clients.app.post('/api/v1/app/invoice/transmit', {
      irn: (await putSignedInvoice()).irn,
    })
    expect(up.status).toBe(200)
    const upText = JSON.stringify(up.body)
    expect(up.body.data.message).toContain(`buyer ${DEV.buyer.tin}: system is up`)

    await setWebhook(DEV.clients.buyer.apiKey, await deadWebhookUrl())
    const down: any = await clients.app.post('/api/v1/app/invoice/transmit', {
      irn: (await putSignedInvoice()).irn,
    })
    expect(down.status).toBe(503)
    expect(down.body.error.errors).toEqual([
      {
        path: 'parties/buyer/webhook',
        code: 'WEBHOOK_DOWN',
        message: `buyer ${DEV.buyer.tin}: system is down (checked with a 2000 ms limit)`,
      },
    ])
    await clearWebhook(DEV.clients.buyer.apiKey)
    for (const text of [upText, JSON.stringify(down.body)]) {
      expect(text).not.toContain('127.0.0.1')
      expect(text).not.toContain('buyer-own-token')
      expect(text).not.toContain(DEV.buyer.name)
      expect(text).not.toMatch(/ECONNREFUSED|\d+ ms\)/)
    }
  })

  it("gives a tenant's ADMIN each dependency's status only: no table name, key id or source", async () => {
    const reply: any = await clients.admin.get('/api/v1/health-check')
    expect(reply.status).toBe(200)
    expect(reply.body.components.dependencies).toEqual({
      dynamodb: { status: 'UP' },
      signingKeys: { status: 'UP' },
      qrAuthorityKey: { status: 'UP' },
    })
    expect(reply.body.components.application).toEqual({ status: 'UP' })
    expect(JSON.stringify(reply.body)).not.toContain(api.tableName)
  })
})
