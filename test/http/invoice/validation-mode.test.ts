import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient, setValidationMode } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

let api: TestApi
let lenientClient: ApiClient
beforeAll(async () => {
  api = await startApi()
  const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['APP'] })
  await setValidationMode(issued.apiKey, 'lenient')
  lenientClient = new ApiClient(api.url, {
    area: 'A',
    credentials: { apiKey: issued.apiKey, secret: issued.secret },
  })
})
afterAll(() => api?.close())

/** A complete invoice whose line total does not add up: an arithmetic finding only. */
function sumWrong() {
  const invoice = buildInvoice()
  invoice.legal_monetary_total.line_extension_amount += 100
  return invoice
}

describe('a client whose default validation mode is lenient', () => {
  it('gets arithmetic findings as warnings without sending x-validation-mode', async () => {
    const reply: any = await lenientClient.post('/api/v1/app/invoice/validate', sumWrong())
    expect(reply.status).toBe(200)
    expect(reply.body.warnings.map((w: { code: string }) => w.code)).toEqual(['NG-CO-10', 'NG-CO-13'])
  })

  it('is still held to strict mode when a request asks for it', async () => {
    const reply: any = await lenientClient.post('/api/v1/app/invoice/validate', sumWrong(), {
      'x-validation-mode': 'strict',
    })
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { code: string }) => e.code)).toEqual(['NG-CO-10', 'NG-CO-13'])
  })
})
