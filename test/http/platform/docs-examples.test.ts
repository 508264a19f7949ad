import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ublOf } from '#lib/documents/ubl.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * docs/examples/invoice-v1.json and invoice-v2.json are the invoices a new user copies (docs/invoices.md
 * posts them). Each must pass every endpoint of its version as written, on a freshly seeded server,
 * with no warning: a change to the rules that breaks them fails here, not in a user's first hour.
 */
const example = (version: 'v1' | 'v2') =>
  JSON.parse(readFileSync(new URL(`../../../docs/examples/invoice-${version}.json`, import.meta.url), 'utf8'))

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

describe.each(['v1', 'v2'] as const)('docs/examples/invoice-%s.json', (version) => {
  const invoice = example(version)

  // Clean: no warnings and no EN 16931 findings, which a JSON invoice gets only when asked (CONTRACT 25).
  it('is validated by si/validate, with nothing else in the reply', async () => {
    const reply = await clients.si.post<any>(`/api/${version}/si/validate`, invoice)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toEqual({
      message: 'Invoice validated successfully',
      payment_status: 'PENDING',
      irn: invoice.irn,
    })
  })

  it('is validated and signed by app/invoice/validate and app/invoice/sign', async () => {
    for (const action of ['validate', 'sign']) {
      const reply = await clients.app.post<any>(`/api/${version}/app/invoice/${action}`, invoice)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body).toEqual({
        message: 'Invoice validated and signed successfully',
        payment_status: 'PENDING',
        irn: invoice.irn,
        signed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      })
    }
  })
})

describe('docs/examples/invoice-v1.xml', () => {
  it('is invoice-v1.json as the service exports it, and si/validate answers it as the JSON asking for EN 16931', async () => {
    const xml = readFileSync(new URL('../../../docs/examples/invoice-v1.xml', import.meta.url), 'utf8')
    expect(xml).toBe(ublOf(example('v1')))
    const reply = await clients.si.postXml<any>('/api/v1/si/validate', xml)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    // A UBL invoice is judged by EN 16931 unasked; the JSON, asked, gets the same findings.
    expect(reply.body.en16931.length).toBeGreaterThan(0)
    const asked = await clients.si.post<any>('/api/v1/si/validate?en16931=true', example('v1'))
    expect(reply.body).toEqual(asked.body)
  })
})
