import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setWebhook } from '#lib/platform/auth/credentials.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'
import {
  clearWebhook,
  deadWebhookUrl,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support-invoices/webhook-receiver.ts'

// The dependencies' detail is written to the log for the operator (never to a reply): this file
// logs at INFO and captures what is written, to read it.
process.env.LOG_LEVEL = 'INFO'
let output: CapturedOutput

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  output = captureOutput(['stdout'])
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(async () => {
  output?.restore()
  await api?.close()
})

let receiver: WebhookReceiver | undefined
afterEach(async () => {
  await clearWebhook(DEV.clients.other.apiKey)
  await receiver?.close()
  receiver = undefined
})

const PATH = '/api/v1/health-check'

describe('GET /api/v1/health-check', () => {
  it('answers an uptime probe with the status and execTime only', async () => {
    const reply = await clients.anonymous.get(PATH)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ healthy: true, status: 'UP', execTime: expect.stringMatching(/^\d+ms$/) })
  })

  it('gives an authenticated client each dependency, the signing and QR keys included, without detail', async () => {
    const reply = await clients.app.get(PATH)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      healthy: true,
      status: 'UP',
      execTime: expect.stringMatching(/^\d+ms$/),
      components: {
        application: { status: 'UP' },
        dependencies: {
          dynamodb: { status: 'UP' },
          signingKeys: { status: 'UP' },
          qrAuthorityKey: { status: 'UP' },
        },
        webhook: 'NOT_CONFIGURED',
      },
    })
  })

  it("gives an ADMIN client each dependency's status only: the detail is the operator's, in the logs", async () => {
    const reply: any = await clients.admin.get(PATH)
    expect(reply.body.components.dependencies).toEqual({
      dynamodb: { status: 'UP' },
      signingKeys: { status: 'UP' },
      qrAuthorityKey: { status: 'UP' },
    })
    expect(reply.body.components.application).toEqual({ status: 'UP' })
    expect(JSON.stringify(reply.body)).not.toContain(api.tableName)
    const logged = output
      .lines()
      .filter((line) => line.includes('health check detail'))
      .map((line) => JSON.parse(line))
    expect(logged.at(-1)).toMatchObject({
      application: { stage: 'local', node: process.version },
      dependencies: {
        dynamodb: { status: 'UP', latencyMs: expect.any(Number), table: api.tableName },
        signingKeys: { status: 'UP', kid: expect.any(String), source: 'file', algorithm: 'Ed25519' },
        qrAuthorityKey: { status: 'UP', source: 'file', algorithm: 'RSA-2048' },
      },
    })
  })

  it("reports the caller's own webhook as UP with its HTTP status", async () => {
    receiver = await startWebhookReceiver({ secret: DEV.clients.other.secret })
    await setWebhook(DEV.clients.other.apiKey, receiver.url)
    const reply: any = await clients.other.get(PATH)
    expect(reply.status).toBe(200)
    expect(reply.body.components.webhook).toEqual({
      status: 'UP',
      url: receiver.url,
      httpStatus: 200,
    })
    expect(receiver.received.map((r) => r.method)).toEqual(['HEAD'])
  })

  it("reports a webhook that refuses connections as DOWN, without making the service's status worse", async () => {
    const dead = await deadWebhookUrl()
    await setWebhook(DEV.clients.other.apiKey, dead)
    const reply: any = await clients.other.get(PATH)
    expect(reply.status).toBe(200)
    expect(reply.body.status).toBe('UP')
    expect(reply.body.components.webhook).toEqual({
      status: 'DOWN',
      url: dead,
      httpStatus: null,
    })
  })

  it('reports a webhook answering 5xx as DOWN with that status', async () => {
    receiver = await startWebhookReceiver({ secret: DEV.clients.other.secret, headStatus: 502 })
    await setWebhook(DEV.clients.other.apiKey, receiver.url)
    const reply: any = await clients.other.get(PATH)
    expect(reply.body.components.webhook).toEqual({
      status: 'DOWN',
      url: receiver.url,
      httpStatus: 502,
    })
  })

  it('shows each client only its own webhook', async () => {
    receiver = await startWebhookReceiver({ secret: DEV.clients.other.secret })
    await setWebhook(DEV.clients.other.apiKey, receiver.url)
    const reply: any = await clients.buyer.get(PATH)
    expect(reply.body.components.webhook).toBe('NOT_CONFIGURED')
  })
})
