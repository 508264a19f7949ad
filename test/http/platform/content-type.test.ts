import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA } from '#client/signing.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

/**
 * Sends a signed generate-invoice-number with the given Content-Type header lines, each on its own
 * line as curl sends `-H` twice (fetch would join them into one line before they left the process).
 */
function post(contentTypes: string[]): Promise<{ status: number; body: any }> {
  const target = '/api/v1/si/generate-invoice-number'
  const body = '{"code":"INV","serial_number":7}'
  const signed = signAreaA(DEV.clients.si, { method: 'POST', target, body })
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${target}`, {
      method: 'POST',
      // Node sends each entry of an array value as its own header line (its types allow one string).
      headers: { ...signed, 'content-type': contentTypes as unknown as string },
    })
    req.on('error', reject)
    req.on('response', (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.end(body)
  })
}

describe('Content-Type sent more than once', () => {
  it('accepts the same application/json twice, in any letter case', async () => {
    const reply = await post(['application/json', 'Application/JSON'])
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.data).toEqual({ invoice_number: 'INV000007' })
  })

  it('still refuses two different media types with 415 naming what was received', async () => {
    const reply = await post(['application/json', 'text/plain'])
    expect(reply.status).toBe(415)
    expect(reply.body.error.message).toContain('application/json,text/plain')
  })
})
