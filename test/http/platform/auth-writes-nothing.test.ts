import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { issueMerchantToken, issueNotifyAdminKey, revokeBearer } from '#lib/platform/auth/credentials.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'
import { wholeTable } from '../../support/whole-table.ts'

/**
 * CONTRACT 18: a request that fails authentication writes nothing, in every area: no rate limit
 * window, no replay or nonce item, nothing else. Each refusal is sent between two reads of the whole
 * table, which must be the same item for item. A replay is a refusal too: its first delivery is let
 * through (and writes what an admitted request writes) before the table is read.
 */
let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

const STATES = '/api/v1/resource/states'
const BALANCE = '/api/v1/transactions/balance-enquiry'
const HISTORY = '/api/v1/merchant/transactions?page=1&size=1'
const EMAILS = '/notification/email'
const balanceBody = JSON.stringify({
  requestId: 'REQ-NOWRITE-1',
  stan: '000001',
  processingCode: '310000',
  accountNumber: '0123456789',
})

/** Every item of the table by its key, as stored. */
async function items(): Promise<Map<string, string>> {
  const all = JSON.parse(await wholeTable()) as { pk: string; sk: string }[]
  return new Map(all.map((item) => [`${item.pk} / ${item.sk}`, JSON.stringify(item)]))
}

/** The keys of the items `refuse` added or changed, after checking it was refused with `status`. */
async function writtenBy(status: number, refuse: () => Promise<{ status: number; text: string }>) {
  await api.settled()
  const before = await items()
  const reply = await refuse()
  expect(reply.status, reply.text).toBe(status)
  await api.settled()
  const after = await items()
  return [...after].filter(([key, item]) => before.get(key) !== item).map(([key]) => key)
}

const get = (target: string, headers: Record<string, string>) => send(`${api.url}${target}`, { headers })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('a request that fails authentication', () => {
  it('writes nothing in Area A: unknown key, wrong signature, replay', async () => {
    const signed = (secret: string, apiKey: string = DEV.clients.si.apiKey) =>
      signAreaA({ apiKey, secret }, { method: 'GET', target: STATES })
    expect(await writtenBy(401, () => get(STATES, signed('x', 'ak_no_such_key')))).toEqual([])
    expect(await writtenBy(401, () => get(STATES, signed('not-the-secret')))).toEqual([])
    const once = signed(DEV.clients.si.secret)
    expect((await get(STATES, once)).status).toBe(200)
    expect(await writtenBy(401, () => get(STATES, once))).toEqual([])
  })

  it('writes nothing in Area B: wrong signature, spent nonce', async () => {
    const post = (headers: Record<string, string>) =>
      send(`${api.url}${BALANCE}`, { method: 'POST', headers, body: balanceBody })
    const signed = (secret: string) =>
      signAreaB({ token: DEV.switch.token, secret }, { method: 'POST', target: BALANCE, body: balanceBody })
    expect(await writtenBy(401, () => post(signed('not-the-secret')))).toEqual([])
    const once = signed(DEV.switch.secret)
    expect((await post(once)).status).toBe(200)
    expect(await writtenBy(401, () => post(once))).toEqual([])
  })

  it('writes nothing in Area C: unknown or revoked token, another merchant named', async () => {
    const { token } = await issueMerchantToken({ merchantId: 'MRC0001' })
    const merchant = (t: string, id = 'MRC0001') => ({ ...bearer(t), 'x-merchant-id': id })
    expect(await writtenBy(401, () => get(HISTORY, merchant('mt_no_such_token')))).toEqual([])
    expect(await writtenBy(403, () => get(HISTORY, merchant(token, 'MRC0002')))).toEqual([])
    await revokeBearer(token)
    expect(await writtenBy(401, () => get(HISTORY, merchant(token)))).toEqual([])
  })

  it('writes nothing in Area D: unknown or revoked admin key', async () => {
    const { token } = await issueNotifyAdminKey()
    expect(await writtenBy(401, () => get(EMAILS, bearer('nak_no_such_key')))).toEqual([])
    await revokeBearer(token)
    expect(await writtenBy(401, () => get(EMAILS, bearer(token)))).toEqual([])
  })

  it('is told apart from one that passes, which is counted in its window', async () => {
    const { token } = await issueNotifyAdminKey()
    const written = await writtenBy(200, () => get(EMAILS, bearer(token)))
    expect(written).toEqual([expect.stringMatching(/^RATE#D#/)])
  })
})
