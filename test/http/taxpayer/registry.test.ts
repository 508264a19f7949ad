import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Taxpayer, TaxpayerRegistry } from '#lib/taxpayer/registry.ts'
import { verifyTin } from '#lib/taxpayer/service.ts'
import { DEV_TAXPAYERS } from '../../../scripts/local/taxpayers.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { envelope, failedEnvelope } from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

describe.each(['v1', 'v2'])('POST /api/%s/resource/verify-tin', (version) => {
  const path = `/api/${version}/resource/verify-tin`

  it('answers the VerifyTinApiResponse of a development business from the registry', async () => {
    const reply = await clients.si.post(path, { tin: DEV.buyer.tin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          message: 'TIN verified',
          tin: '87654321-0001',
          taxpayer_name: 'Dev Buyer Plc',
          address: '3 Aminu Kano Crescent, Wuse II, Abuja',
          taxofficer_id: 'LTO-FC-0031',
          taxofficer_name: 'Abuja Large Tax Office',
          rc_number: 'RC1000002',
          email: 'payables@devbuyer.example',
          phone: '+2348010000002',
        },
        'TIN verified',
      ),
    )
  })

  it.each(DEV_TAXPAYERS.map((t) => [t.tin, t.taxpayerName]))(
    'knows every seeded taxpayer (%s, %s)',
    async (tin, name) => {
      const reply: any = await clients.app.post(path, { tin })
      expect(reply.status).toBe(200)
      expect(reply.body.data).toMatchObject({ tin, taxpayer_name: name })
      // Every field of the reply record is a string (A.6).
      expect(Object.values(reply.body.data).every((v) => typeof v === 'string')).toBe(true)
    },
  )

  it('verifies a 13-digit Tax ID (NRS/JRB notice of May 2026) from the registry, as it holds it', async () => {
    const reply: any = await clients.si.post(path, { tin: '3047291850016' })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({
      tin: '3047291850016',
      taxpayer_name: 'Plateau Solar Installers Ltd',
      rc_number: 'RC3047291',
    })
    // Well-formed, so an unknown one is the registry's 404, not a format error.
    const unknown = await clients.si.post(path, { tin: '9999999999999' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject(failedEnvelope('404 NOT_FOUND', /No taxpayer with TIN 9999999999999/))
  })

  it('answers 404 for a well-formed TIN the registry does not know', async () => {
    const reply = await clients.si.post(path, { tin: '99999999-0001' })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(failedEnvelope('404 NOT_FOUND', /No taxpayer with TIN 99999999-0001/))
  })

  it.each([
    ['without the branch suffix', '12345678'],
    ['with letters', 'TIN-00A001'],
    ['with 9 digits first', '123456789-0001'],
    ['with spaces', ' 12345678-0001'],
    ['of 12 digits', '123456789012'],
    ['of 14 digits', '12345678901234'],
  ])('answers 400 for a TIN %s', async (_, tin) => {
    const reply = await clients.si.post(path, { tin })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      failedEnvelope('400 BAD_REQUEST', /invalid/, [
        {
          path: 'tin',
          code: 'FIELD_FORMAT',
          message:
            'tin must be of the form NNNNNNNN-NNNN (e.g. 12345678-0001), the 13-digit Tax ID (e.g. 1234567890123) or TIN- and digits (e.g. TIN-0099990001)',
        },
      ]),
    )
  })

  it('answers 400 when tin is missing or not a string', async () => {
    for (const body of [{}, { tin: 12345678 }]) {
      const reply: any = await clients.si.post(path, body)
      expect(reply.status).toBe(400)
      expect(reply.body.error.errors).toEqual([
        // Missing and of the wrong type are two codes (CONTRACT 20), with the schema's one message.
        {
          path: 'tin',
          code: 'tin' in body ? 'FIELD_TYPE' : 'FIELD_REQUIRED',
          message: expect.stringContaining('tin is required'),
        },
      ])
    }
  })
})

describe('the taxpayer registry interface', () => {
  it('lets another registry adapter answer verify-tin', async () => {
    const taxpayer: Taxpayer = {
      tin: '10000000-0001',
      taxpayerName: 'Adapter Test Ltd',
      address: '1 Test Road, Lagos',
      taxOfficerId: 'X-1',
      taxOfficerName: 'Test Office',
      rcNumber: 'RC1',
      email: 'a@adapter.example',
      phone: '+2340000000000',
    }
    const registry: TaxpayerRegistry = {
      lookup: async (tin) => (tin === taxpayer.tin ? taxpayer : undefined),
    }
    expect(await verifyTin('10000000-0001', registry)).toMatchObject({
      tin: '10000000-0001',
      taxpayer_name: 'Adapter Test Ltd',
    })
    await expect(verifyTin('10000000-0002', registry)).rejects.toMatchObject({ kind: 'not-found' })
  })
})
