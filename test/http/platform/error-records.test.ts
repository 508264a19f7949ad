import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

/** A signed Area A request with an arbitrary raw body and content type. */
function areaA(method: string, target: string, body: string | Buffer, contentType?: string) {
  const headers = signAreaA(DEV.clients.si, { method, target, body })
  return send(`${api.url}${target}`, {
    method,
    headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  })
}

/** Area A's record of a refusal of the request as a whole: one item carrying its catalogue code (CONTRACT 20). */
const firsError = (status: string, message: RegExp, code: string) => ({
  timestamp: expect.any(String),
  message: expect.stringMatching(message),
  details: expect.any(String),
  status,
  errors: [{ path: '', code, message: expect.stringMatching(message) }],
})

describe('error records', () => {
  it('answers malformed JSON with 400 and the FirsErrorDetails record', async () => {
    const reply = await areaA('POST', '/api/v1/si/generate-irn', '{"invoice_number": ', 'application/json')
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(firsError('400 BAD_REQUEST', /not valid JSON/, 'BODY_NOT_JSON'))
  })

  it('answers an empty body with 400 that says so', async () => {
    const reply = await areaA('POST', '/api/v1/si/generate-irn', '', 'application/json')
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(firsError('400 BAD_REQUEST', /empty/, 'BODY_EMPTY'))
  })

  it('answers a body that is not JSON by content type with 415, inside the Envelope on envelope routes', async () => {
    const reply = await areaA(
      'POST',
      '/api/v1/si/generate-invoice-number',
      'code=INV',
      'application/x-www-form-urlencoded',
    )
    expect(reply.status).toBe(415)
    expect(reply.body).toEqual({
      status: 'FAILED',
      message: expect.stringContaining('application/json'),
      data: null,
      execTime: expect.any(String),
      error: firsError(
        '415 UNSUPPORTED_MEDIA_TYPE',
        /Content-Type must be application\/json/,
        'UNSUPPORTED_MEDIA_TYPE',
      ),
    })
  })

  it('answers a body over 1 MiB with 413 before authenticating or parsing it', async () => {
    const body = `{"pad":"${'x'.repeat(1024 * 1024)}"}`
    const reply = await areaA('POST', '/api/v1/si/validate', body, 'application/json')
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(firsError('413 PAYLOAD_TOO_LARGE', /larger than the limit/, 'BODY_TOO_LARGE'))
  })

  it('answers an unknown route with 404 in the Area A record', async () => {
    const reply = await send(`${api.url}/api/v1/si/no-such-thing`)
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(
      firsError('404 NOT_FOUND', /No endpoint GET \/api\/v1\/si\/no-such-thing/, 'ROUTE_NOT_FOUND'),
    )
  })

  it('names the nearest served path, one only, for an unknown path under /api/ (a misspelt sign)', async () => {
    const reply = await send(`${api.url}/api/v1/app/invoice/sing`, { method: 'POST', body: '{}' })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(
      firsError(
        '404 NOT_FOUND',
        /^No endpoint POST \/api\/v1\/app\/invoice\/sing: the nearest served path is POST \/api\/v1\/app\/invoice\/sign; check the path/,
        'ROUTE_NOT_FOUND',
      ),
    )
    expect(reply.body.message.match(/nearest/g)).toHaveLength(1)
  })

  it('quotes no more than 100 characters of an unknown path back', async () => {
    const long = `/api/v1/si/${'x'.repeat(5000)}`
    const reply = await send(`${api.url}${long}`)
    expect(reply.status).toBe(404)
    expect(reply.body.message).toContain(
      `No endpoint GET ${long.slice(0, 100)}...: the nearest served path is GET `,
    )
    expect(reply.body.message.length).toBeLessThan(400)
  })

  it('quotes no more than 100 characters of the path in a 405 either', async () => {
    const long = `/api/v1/app/invoice/confirm/${'x'.repeat(5000)}`
    const reply = await send(`${api.url}${long}`, { method: 'DELETE' })
    expect(reply.status).toBe(405)
    expect(reply.body.message).toBe(`DELETE is not allowed on ${long.slice(0, 100)}...; allowed: GET`)
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const reply = await send(`${api.url}/api/v1/resource/states`, { method: 'DELETE' })
    expect(reply.status).toBe(405)
    expect(reply.headers.get('allow')).toBe('GET')
    expect(reply.body).toEqual(
      firsError('405 METHOD_NOT_ALLOWED', /DELETE is not allowed/, 'METHOD_NOT_ALLOWED'),
    )
  })

  it('answers unknown Area B, C and D paths in their own records', async () => {
    const b = await send(`${api.url}/api/v1/transactions/unknown`, { method: 'POST' })
    expect(b.status).toBe(404)
    expect(b.body).toMatchObject({ responseCode: '25', responseStatus: 'FAILED' })
    const c = await send(`${api.url}/api/v1/merchant/unknown`)
    expect(c.body).toMatchObject({
      responseCode: '25',
      responseStatus: 'FAILED',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    })
    const d = await send(`${api.url}/notification/unknown`)
    expect(d.body).toEqual({
      status: 404,
      message: expect.any(String),
      errors: [{ path: '', code: 'ROUTE_NOT_FOUND', message: expect.any(String) }],
    })
  })

  it('answers malformed JSON on an Area B route with 400 in the responseCode record', async () => {
    const target = '/api/v1/transactions/transfer'
    const body = '{"requestId": "R1",'
    const reply = await send(`${api.url}${target}`, {
      method: 'POST',
      headers: signAreaB(
        { token: DEV.switch.token, secret: DEV.switch.secret },
        { method: 'POST', target, body },
      ),
      body,
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      responseCode: '30',
      responseStatus: 'FAILED',
      responseMessage: expect.stringContaining('JSON'),
    })
  })

  it('never answers a request with a 500 for odd bodies', async () => {
    for (const body of [
      'null',
      '[]',
      '"text"',
      '42',
      'true',
      '{"__proto__": {"x": 1}}',
      '\u0000',
      '\ud800',
    ]) {
      const reply = await areaA('POST', '/api/v1/si/generate-irn', body, 'application/json')
      expect(reply.status, body).toBe(400)
      expect(reply.body.status, body).toBe('400 BAD_REQUEST')
    }
  })
})
