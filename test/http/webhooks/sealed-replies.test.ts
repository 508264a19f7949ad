import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { wholeTable } from '../../support/whole-table.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * Secrets shown once are never stored in plain text (CONTRACT section 14), idempotency records
 * included: POST /api/v1/webhooks answers with the subscription's signing secret, and a retry with
 * the same Idempotency-Key gets that same reply back, so the first reply is stored: sealed with the
 * data key (lib/platform/http/sealed-reply.ts). The test reads the whole table as it is stored.
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

describe('POST /api/v1/webhooks with an Idempotency-Key', () => {
  it('replays the reply with its secret, and the table holds that secret nowhere in plain text', async () => {
    const key = { 'idempotency-key': `sealed-${Date.now()}` }
    // A public address literal: the destination policy resolves a name (CONTRACT 14), and a test has no DNS.
    const body = { url: 'https://93.184.215.14/sealed-hook', events: ['invoice.signed'] }
    const first = await clients.admin.post<any>('/api/v1/webhooks', body, key)
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const secret: string = first.body.data.secret
    expect(secret).toMatch(/^whsec_/)

    const retry = await clients.admin.post<any>('/api/v1/webhooks', body, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body.data).toEqual(first.body.data)

    const table = await wholeTable()
    // The idempotency record is there, and holds the reply sealed.
    expect(table).toContain('IDEMPOTENCY#')
    expect(table).toContain('enc:v1:')
    expect(table).not.toContain('whsec_')
    expect(table).not.toContain(secret.slice('whsec_'.length))
    // Nor any issued API secret or token of the development credentials.
    const issued = [...Object.values(DEV.clients).map((c) => c.secret), DEV.switch.secret]
    for (const value of issued) expect(table.includes(value), 'an issued secret').toBe(false)
  })
})
