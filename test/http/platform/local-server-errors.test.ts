import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

/**
 * CONTRACT section 9: the local server answers every request it can parse with the area's error
 * record, and the ones Node's HTTP parser refuses with a short JSON `{message}`, never an empty reply
 * or a closed connection. Sent over a raw socket, since fetch refuses to send most of these.
 */
let api: TestApi
let port: number
beforeAll(async () => {
  api = await startApi()
  port = Number(new URL(api.url).port)
})
afterAll(() => api?.close())

interface RawReply {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes the bytes as they are and reads the reply until the server closes the connection. */
function raw(request: string | Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n') })
    })
    // Written, not ended: a half-closed connection may be dropped before an async handler replies.
    socket.write(request)
    socket.setTimeout(10_000, () => socket.destroy(new Error('no reply within 10 s')))
  })
}

const request = (line: string, headers: string[] = []) =>
  raw([line, 'Host: 127.0.0.1', 'Connection: close', ...headers, '', ''].join('\r\n'))

/** A short JSON body with a message a person can act on. */
function expectMessage(reply: RawReply, status: number) {
  expect(reply.status).toBe(status)
  expect(reply.headers['content-type']).toMatch(/^application\/json/)
  const body = JSON.parse(reply.body)
  expect(body).toEqual({ message: expect.any(String) })
  expect(body.message.length).toBeGreaterThan(10)
  expect(reply.body.length).toBeLessThan(200)
}

describe("requests Node's parser refuses", () => {
  it('CONNECT gets 405 and a JSON body, not a dropped connection', async () => {
    expectMessage(await request('CONNECT 127.0.0.1:443 HTTP/1.1'), 405)
  })

  it('a header section over 16 KB gets 431 and a JSON body', async () => {
    expectMessage(
      await request('GET /api/v1/health-check HTTP/1.1', [`X-Big: ${'a'.repeat(17 * 1024)}`]),
      431,
    )
  })

  it.each(['FOO', 'get'])('method %s gets 405 and a JSON body', async (method) => {
    expectMessage(await request(`${method} /api/v1/health-check HTTP/1.1`), 405)
  })

  it('a request target without a leading / gets 400 and a JSON body', async () => {
    expectMessage(await request('GET api/v1/health-check HTTP/1.1'), 400)
  })

  it('a control character in Content-Type gets 400 and a JSON body', async () => {
    expectMessage(
      await request('POST /api/v1/si/validate HTTP/1.1', [
        'Content-Type: application/\u0001json',
        'Content-Length: 2',
      ]),
      400,
    )
  })
})

describe('requests the server parses but cannot route', () => {
  it.each([
    ['PATCH', '/api/v1/app/invoice/update/%E0%A4%A'],
    ['PATCH', '/api/v2/app/invoice/update/%'],
    ['GET', '/api/v1/app/invoice/confirm/%C0%AF'],
    ['GET', '/api/v2/si/get-invoice/%ED%A0%80'],
  ])('%s %s (malformed percent-encoding) is 400 in the Area A envelope', async (method, path) => {
    const body = method === 'PATCH' ? '{"payment_status":"PAID"}' : undefined
    const headers = {
      ...signAreaA(DEV.clients.app, { method, target: path, body: body ?? '' }),
      ...(body ? { 'content-type': 'application/json' } : {}),
    }
    const reply = await send(`${api.url}${path}`, { method, headers, body })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      status: 'FAILED',
      data: null,
      error: { status: '400 BAD_REQUEST', message: expect.stringContaining('percent-encoded') },
    })
  })

  it('PUT /notification/template/%ZZ is 400 in the Area D record', async () => {
    const reply = await send(`${api.url}/notification/template/%ZZ`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEV.notifyAdmin.token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ status: 400, message: expect.stringContaining('percent-encoded') })
  })

  it.each([
    ['PROPFIND', '/api/v1/si/validate', 'record'],
    ['PROPFIND', '/nowhere/at/all', 'record'],
    ['TRACE', '/api/v1/transactions/transfer', 'bank'],
    ['HEAD', '/notification/email', 'notification'],
  ])('an unknown method %s on %s is 405 in the area record', async (method, path, kind) => {
    const reply = await request(`${method} ${path} HTTP/1.1`)
    expect(reply.status).toBe(405)
    expect(reply.headers.allow).toBeTruthy()
    // HEAD replies carry no body by definition; the others carry the area's record.
    if (method === 'HEAD') return
    const body = JSON.parse(reply.body)
    if (kind === 'record') expect(body.status).toBe('405 METHOD_NOT_ALLOWED')
    if (kind === 'bank') expect(body).toMatchObject({ responseCode: '12', responseStatus: 'FAILED' })
  })
})
