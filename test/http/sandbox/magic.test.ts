import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setWebhook } from '#lib/platform/auth/credentials.ts'
import { dropTestAccounts } from '../../support/sandbox.ts'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { getAccount } from '#lib/ledger/repository.ts'
import { inMode } from '#lib/platform/mode.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  DEV_TEST,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { transferBody } from '../../support/transfers.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'
import {
  clearWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support-invoices/webhook-receiver.ts'

/**
 * The sandbox's magic values (CONTRACT section 15, docs/sandbox.md), each through HTTP with the
 * development credentials' test twins, and each checked to be an ordinary value in live mode.
 */
let api: TestApi
let live: DevClients
let test: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
})
afterAll(() => api?.close())

describe('POST /api/v1/resource/verify-tin in test mode', () => {
  const path = '/api/v1/resource/verify-tin'

  it('verifies 00000000-0001 as an active taxpayer, and answers 404 for 00000000-0002', async () => {
    const active: any = await test.si.post(path, { tin: '00000000-0001' })
    expect(active.status).toBe(200)
    expect(active.headers.get('x-environment')).toBe('test')
    expect(active.body.data).toEqual({
      message: 'TIN verified',
      tin: '00000000-0001',
      taxpayer_name: 'Sandbox Active Taxpayer Ltd',
      address: '1 Test Street, Victoria Island, Lagos',
      taxofficer_id: 'TO-TEST-0001',
      taxofficer_name: 'Sandbox Tax Office',
      rc_number: 'RC0000001',
      email: 'sandbox@taxpayer.example',
      phone: '+2340000000001',
    })
    expect((await test.si.post(path, { tin: '00000000-0002' })).status).toBe(404)
  })

  it('answers the same two in the 13-digit Tax ID form: 0000000000001 active, 0000000000002 not found', async () => {
    const active: any = await test.si.post(path, { tin: '0000000000001' })
    expect(active.status).toBe(200)
    expect(active.headers.get('x-environment')).toBe('test')
    expect(active.body.data).toMatchObject({
      tin: '0000000000001',
      taxpayer_name: 'Sandbox Active Taxpayer Ltd',
      taxofficer_id: 'TO-TEST-0001',
    })
    const notFound: any = await test.si.post(path, { tin: '0000000000002' })
    expect(notFound.status).toBe(404)
    expect(notFound.body.message).toMatch(/No taxpayer with TIN 0000000000002/)
    // Live mode has no magic: both are ordinary Tax IDs the registry does not hold.
    for (const tin of ['0000000000001', '0000000000002'])
      expect((await live.si.post(path, { tin })).status).toBe(404)
  })

  it('looks other TINs up in the registry as live mode does, and the magic TINs are ordinary in live mode', async () => {
    const real: any = await test.si.post(path, { tin: DEV.buyer.tin })
    expect(real.status).toBe(200)
    expect(real.body.data.taxpayer_name).toBe('Dev Buyer Plc')
    expect((await live.si.post(path, { tin: '00000000-0001' })).status).toBe(404)
  })
})

describe('POST /api/v1/app/invoice/transmit to a magic buyer in test mode', () => {
  const path = '/api/v1/app/invoice/transmit'
  const SUPPLIER = `supplier ${DEV.supplier.tin}`
  const signedFor = (tin: string) => inMode('test', () => putSignedInvoice({ buyer: { ...DEV.buyer, tin } }))
  const receivers: WebhookReceiver[] = []
  afterEach(async () => {
    await Promise.all(
      [DEV.clients.buyer, DEV.clients.app, DEV_TEST.clients.app].map((c) => clearWebhook(c.apiKey)),
    )
    await Promise.all(receivers.splice(0).map((r) => r.close()))
  })

  it("00000000-0101: the system is up, the invoice is TRANSMITTED and invoice.received is the business's own event", async () => {
    const { irn } = await signedFor('00000000-0101')
    const reply: any = await test.app.post(path, { irn })
    expect(reply.status).toBe(200)
    expect(reply.body.data.message).toEqual([
      `${SUPPLIER}: no system registered, not checked`,
      'buyer 00000000-0101: system is up',
      'buyer 00000000-0101: signed invoice delivered',
      expect.stringMatching(new RegExp(`^invoice ${irn}: SIGNED -> TRANSMITTED at `)),
    ])
    const events = await inMode('test', () => eventsOfBusiness(DEV.supplier.businessId))
    const mine = events.filter((e) => e.data.irn === irn).map((e) => [e.type, e.business_id])
    expect(mine.sort()).toEqual([
      ['invoice.received', DEV.supplier.businessId],
      ['invoice.transmitted', DEV.supplier.businessId],
    ])
    // Nothing of it in live mode.
    const liveEvents = await eventsOfBusiness(DEV.supplier.businessId)
    expect(liveEvents.filter((e) => e.data.irn === irn)).toEqual([])
  })

  it('00000000-0102: answers 503 exactly as for a buyer whose webhook is down, and the invoice stays SIGNED', async () => {
    const { irn } = await signedFor('00000000-0102')
    const reply: any = await test.app.post(path, { irn })
    expect(reply.status).toBe(503)
    expect(reply.body.error.errors).toEqual([
      {
        path: 'parties/buyer/webhook',
        code: 'WEBHOOK_DOWN',
        message: 'buyer 00000000-0102: system is down (checked with a 2000 ms limit)',
      },
    ])
    expect(reply.body.message).toMatch(new RegExp(`Invoice ${irn} was not transmitted and stays SIGNED`))
    const confirm: any = await test.app.get(`/api/v1/app/invoice/confirm/${irn}`)
    expect(confirm.body.data.status).toBe('SIGNED')
  })

  it('the magic buyer TINs are ordinary TINs in live mode (no business has them: nothing to check)', async () => {
    const { irn } = await putSignedInvoice({ buyer: { ...DEV.buyer, tin: '00000000-0102' } })
    const reply: any = await live.app.post(path, { irn })
    expect(reply.status).toBe(200)
    expect(reply.body.data.message).toContain('buyer 00000000-0102: no system registered, not checked')
  })

  it("a test-mode transmit never probes or delivers to a party's live system, and a live one never to a test client's", async () => {
    const liveBuyer = await startWebhookReceiver({ secret: DEV.clients.buyer.secret })
    const testSupplier = await startWebhookReceiver({ secret: DEV_TEST.clients.app.secret })
    receivers.push(liveBuyer, testSupplier)
    await setWebhook(DEV.clients.buyer.apiKey, liveBuyer.url)
    await setWebhook(DEV_TEST.clients.app.apiKey, testSupplier.url)

    // Test mode, to the real buyer business: its live client's system is not its test-mode one.
    const inTest = await inMode('test', () => putSignedInvoice())
    const testReply: any = await test.app.post(path, { irn: inTest.irn })
    expect(testReply.status).toBe(200)
    expect(testReply.body.data.message).toEqual([
      `${SUPPLIER}: system is up`,
      `buyer ${DEV.buyer.tin}: no system registered, not checked`,
      expect.stringMatching(/^buyer .*: nothing delivered/),
      expect.stringMatching(/SIGNED -> TRANSMITTED/),
    ])
    expect(liveBuyer.received).toEqual([])
    const probedInTest = testSupplier.received.length
    expect(probedInTest).toBe(1)

    // Live mode: the buyer's live system is probed and delivered to; the supplier's test client is not.
    const inLive = await putSignedInvoice()
    const liveReply: any = await live.app.post(path, { irn: inLive.irn })
    expect(liveReply.status).toBe(200)
    expect(liveReply.body.data.message[0]).toBe(`${SUPPLIER}: no system registered, not checked`)
    expect(liveBuyer.posts()).toHaveLength(1)
    expect(testSupplier.received).toHaveLength(probedInTest)
  })
})

describe('Area B magic accounts in test mode', () => {
  const TRANSFER = '/api/v1/transactions/transfer'
  const BALANCE = '/api/v1/transactions/balance-enquiry'
  const enquiry = (accountNumber: string) => ({
    requestId: `REQ-${crypto.randomUUID()}`,
    stan: '000001',
    processingCode: '310000',
    accountNumber,
  })

  it('1000000000 has 1,000,000.00 and approves; the transfer pays the merchant as a live one does', async () => {
    const balance: any = await test.switch.post(BALANCE, enquiry('1000000000'))
    expect(balance.status).toBe(200)
    expect(balance.body.availableBalance).toBe(1_000_000)
    const reply: any = await test.switch.post(
      TRANSFER,
      transferBody({ accountNumber: '1000000000', amount: 2500 }),
    )
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ responseCode: '00', status: 'SUCCESSFUL', merchantId: 'MRC0001' })
    const after: any = await test.switch.post(BALANCE, enquiry('1000000000'))
    expect(after.body.availableBalance).toBe(997_500)
    // The merchant sees it in its test-mode history, and not in its live one.
    await api.settled()
    const history: any = await test.merchant.get('/api/v1/merchant/transactions?size=50')
    expect(history.body.data.content.map((t: any) => t.providerReference)).toContain(
      reply.body.providerReference,
    )
    const liveHistory: any = await live.merchant.get('/api/v1/merchant/transactions?size=50')
    expect(liveHistory.body.data.content.map((t: any) => t.providerReference)).not.toContain(
      reply.body.providerReference,
    )
  })

  it('1000000051 always declines with 51, whatever the amount', async () => {
    for (const amount of [0.01, 5_000_000]) {
      const reply: any = await test.switch.post(
        TRANSFER,
        transferBody({ accountNumber: '1000000051', amount }),
      )
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ responseCode: '51', responseStatus: 'FAILED', status: 'FAILED' })
    }
  })

  it('1000000091 always answers 91 (issuer unavailable) and nothing is debited or recorded', async () => {
    const body = transferBody({ accountNumber: '1000000091', amount: 10 })
    for (let i = 0; i < 2; i++) {
      const reply: any = await test.switch.post(TRANSFER, body)
      expect(reply.status).toBe(503)
      expect(reply.body).toMatchObject({ responseCode: '91', responseStatus: 'FAILED' })
      expect(reply.body.responseMessage).toMatch(/issuer .* unavailable: nothing was debited/)
    }
    const enquired: any = await test.switch.post(BALANCE, enquiry('1000000091'))
    expect(enquired.status).toBe(503)
    expect(enquired.body.responseCode).toBe('91')
    expect(await inMode('test', () => getAccount('1000000091'))).toMatchObject({ balanceKobo: 100_000_000 })
  })

  it('1000000006 is dormant: the name enquiry and a transfer answer 06 (RJCT AC06), nothing is debited', async () => {
    const named: any = await test.switch.post('/api/v1/transactions/name-enquiry', {
      requestId: `NE-${crypto.randomUUID()}`,
      accountNumber: '1000000006',
    })
    expect(named.status).toBe(409)
    expect(named.body).toMatchObject({ responseCode: '06', iso20022: { status: 'RJCT', reason: 'AC06' } })
    const reply: any = await test.switch.post(TRANSFER, transferBody({ accountNumber: '1000000006' }))
    expect(reply.status).toBe(409)
    expect(reply.body).toMatchObject({ responseCode: '06', iso20022: { status: 'RJCT', reason: 'AC06' } })
    expect(await inMode('test', () => getAccount('1000000006'))).toMatchObject({
      balanceKobo: 0,
      status: 'DORMANT',
    })
  })

  it('opens a magic account on its first use in a stack that never seeded it', async () => {
    await dropTestAccounts(['1000000000'])
    expect(await inMode('test', () => getAccount('1000000000'))).toBeUndefined()
    const reply: any = await test.switch.post(
      TRANSFER,
      transferBody({ accountNumber: '1000000000', amount: 1 }),
    )
    expect(reply.body).toMatchObject({ responseCode: '00' })
    expect(await inMode('test', () => getAccount('1000000000'))).toMatchObject({
      balanceKobo: 100_000_000 - 100,
    })
  })

  it('the magic account numbers are ordinary in live mode', async () => {
    const reply: any = await live.switch.post(TRANSFER, transferBody({ accountNumber: '1000000091' }))
    expect(reply.status).toBe(404)
    expect(reply.body.responseCode).toBe('14')
    const named: any = await live.switch.post('/api/v1/transactions/name-enquiry', {
      requestId: `NE-${crypto.randomUUID()}`,
      accountNumber: '1000000006',
    })
    expect(named.status).toBe(404)
    expect(named.body.responseCode).toBe('14')
  })
})
