import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'
import { DEV, devClients } from '../../support/clients.ts'

// This file turns request logging on (the suite keeps it silent) and captures everything written.
process.env.LOG_LEVEL = 'DEBUG'
let output: CapturedOutput

let api: TestApi
beforeAll(async () => {
  output = captureOutput()
  api = await startApi()
})
afterAll(async () => {
  output?.restore()
  await api?.close()
})

/** Every value that must never reach a log: secrets, tokens, full API keys, and the signatures sent. */
const sensitive = new Set<string>([
  ...Object.values(DEV.clients).flatMap((c) => [c.apiKey, c.secret]),
  DEV.switch.token,
  DEV.switch.secret,
  ...DEV.merchants.map((m) => m.token),
  DEV.notifyAdmin.token,
])

describe('logs', () => {
  it('contain no secret, token, signature or full API key after a run of every auth flow', async () => {
    const clients = devClients(api.url)
    const signatures: string[] = []
    // Area A: success, wrong secret, replay, role refusal, unknown key.
    await clients.si.get('/api/v1/resource/states')
    const good = signAreaA(DEV.clients.si, { method: 'GET', target: '/api/v1/resource/countries' })
    const bad = signAreaA(
      { apiKey: DEV.clients.app.apiKey, secret: 'wrong' },
      { method: 'GET', target: '/api/v1/resource/countries' },
    )
    signatures.push(good['x-api-signature']!, bad['x-api-signature']!)
    await send(`${api.url}/api/v1/resource/countries`, { headers: good })
    await send(`${api.url}/api/v1/resource/countries`, { headers: good })
    await send(`${api.url}/api/v1/resource/countries`, { headers: bad })
    await clients.si.get('/api/v1/app/invoice/confirm/INV1-94ND90NR-20261121')
    await send(`${api.url}/api/v1/health-check`, { headers: { ...good, 'x-api-key': 'unknown-key' } })
    await clients.admin.get('/api/v1/health-check')
    // Area B: success, bad signature, replayed nonce, malformed JSON.
    const target = '/api/v1/transactions/balance-enquiry'
    const body = JSON.stringify({
      requestId: 'LOG-1',
      stan: '000001',
      processingCode: '310000',
      accountNumber: '0123456789',
    })
    const b = signAreaB(
      { token: DEV.switch.token, secret: DEV.switch.secret },
      { method: 'POST', target, body },
    )
    signatures.push(b['x-signature']!)
    await send(`${api.url}${target}`, { method: 'POST', headers: b, body })
    await send(`${api.url}${target}`, { method: 'POST', headers: b, body })
    await send(`${api.url}${target}`, {
      method: 'POST',
      headers: { ...b, 'x-signature': Buffer.alloc(32).toString('base64') },
      body,
    })
    // Areas C and D: valid, wrong merchant, no token.
    await clients.merchant.get('/api/v1/merchant/transactions')
    await send(`${api.url}/api/v1/merchant/transactions`, {
      headers: { authorization: `Bearer ${DEV.merchants[0].token}`, 'x-merchant-id': 'MRC0002' },
    })
    await clients.notify.get('/notification/email')
    await send(`${api.url}/notification/email`, { headers: { authorization: 'Bearer wrong' } })

    const log = output.written.join('')
    // The capture is real: the requests above were logged.
    expect(log).toContain('"route":"GET /api/v1/resource/states"')
    expect(log).toContain('"status":401')
    for (const value of [...sensitive, ...signatures])
      expect(log, `log contains ${value.slice(0, 4)}...`).not.toContain(value)
  })
})
