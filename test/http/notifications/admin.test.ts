import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const LAGOS_TIME = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
const TEMPLATE_KEYS = [
  'templateID',
  'productCode',
  'message',
  'messageType',
  'createdAT',
  'createdBy',
  'updatedAt',
  'updatedBy',
  'version',
]

interface Template {
  templateID: number
  productCode: string
  message: string
  messageType: number
  version: number
}

const put = (target: string, body: unknown) => clients.notify.request('PUT', target, body)
const del = (target: string, body: unknown) => clients.notify.request('DELETE', target, body)

async function create(
  productCode: string,
  messageType: number,
  message = 'Paid {{amount}} for {{merchantReference}}',
) {
  const reply = await clients.notify.post<{ status: number; message: string; data: Template }>(
    '/notification/template',
    {
      message,
      messageType,
      productCode,
    },
  )
  expect(reply.status).toBe(201)
  return reply.body.data
}

describe('POST /notification/template', () => {
  it('creates a template with an integer templateID and version 1, replying 201', async () => {
    const reply = await clients.notify.post('/notification/template', {
      message: 'Payment of {{amount}} received',
      messageType: 0,
      productCode: 'AIRTIME',
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual({
      status: 201,
      message: expect.stringMatching(/^Template \d+ created for product AIRTIME, messageType 0$/),
      data: {
        templateID: expect.any(Number),
        productCode: 'AIRTIME',
        message: 'Payment of {{amount}} received',
        messageType: 0,
        createdAT: LAGOS_TIME,
        createdBy: 'dev-notify',
        updatedAt: LAGOS_TIME,
        updatedBy: 'dev-notify',
        version: 1,
      },
    })
    expect(Object.keys((reply.body as { data: object }).data)).toEqual(TEMPLATE_KEYS)
  })

  it('refuses a second template for the same productCode and messageType with 409', async () => {
    const first = await create('DUPLICATE', 1)
    const reply = await clients.notify.post('/notification/template', {
      message: 'Other',
      messageType: 1,
      productCode: 'DUPLICATE',
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      status: 409,
      message: `A template for product DUPLICATE and messageType 1 (failed) already exists (templateID ${first.templateID}): replace it with PUT /notification/template/${first.templateID}`,
      errors: [{ path: '', code: 'TEMPLATE_EXISTS', message: expect.stringContaining('already exists') }],
    })
  })

  it('allocates distinct templateIDs to concurrent creations', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => create(`PARALLEL${i}`, i % 2)))
    const ids = created.map((t) => t.templateID)
    expect(new Set(ids).size).toBe(12)
    expect(ids.every(Number.isInteger)).toBe(true)
  })

  it.each([
    ['messageType 2', { message: 'x', messageType: 2, productCode: 'P1' }, 'messageType'],
    ['messageType as a string', { message: 'x', messageType: '0', productCode: 'P1' }, 'messageType'],
    ['an empty message', { message: '  ', messageType: 0, productCode: 'P1' }, 'message'],
    ['a missing productCode', { message: 'x', messageType: 0 }, 'productCode'],
  ])('answers 400 for %s', async (_, body, path) => {
    const reply = await clients.notify.post('/notification/template', body)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      status: 400,
      message: 'The request body is invalid: 1 problem found',
      errors: [{ path, code: expect.any(String), message: expect.any(String) }],
    })
  })
})

describe('GET /notification/template', () => {
  it("lists the product's templates with the exact D.1 key names", async () => {
    const success = await create('LISTED', 0, 'OK {{amount}}')
    const failure = await create('LISTED', 1, 'Failed {{amount}}')
    const reply = await clients.notify.get<{ status: number; message: string; data: Template[] }>(
      '/notification/template?product=LISTED',
    )
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      status: 200,
      message: '2 templates found for product LISTED',
      data: [success, failure],
    })
    for (const item of reply.body.data) expect(Object.keys(item)).toEqual(TEMPLATE_KEYS)
  })

  it('narrows to one templateID with tempID', async () => {
    const success = await create('FILTERED', 0)
    await create('FILTERED', 1)
    const reply = await clients.notify.get(
      `/notification/template?product=FILTERED&tempID=${success.templateID}`,
    )
    expect(reply.body).toEqual({
      status: 200,
      message: '1 template found for product FILTERED',
      data: [success],
    })
  })

  it('answers an empty list for a product without templates', async () => {
    const reply = await clients.notify.get('/notification/template?product=NOTHING')
    expect(reply.body).toEqual({ status: 200, message: '0 templates found for product NOTHING', data: [] })
  })

  it.each([
    ['product is missing', '/notification/template', 'query/product'],
    ['product is empty', '/notification/template?product=', 'query/product'],
    ['tempID is not a number', '/notification/template?product=X&tempID=abc', 'query/tempID'],
  ])('answers 400 when %s', async (_, target, path) => {
    const reply = await clients.notify.get(target)
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ status: 400, errors: [{ path }] })
  })
})

describe('PUT /notification/template/{templateId}', () => {
  it('replaces the whole template and increments its version', async () => {
    const original = await create('REPLACED', 0, 'Old text')
    const reply = await put(`/notification/template/${original.templateID}`, {
      message: 'New {{status}}',
      messageType: 0,
      productCode: 'REPLACED',
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      status: 200,
      message: `Template ${original.templateID} replaced: now version 2`,
      data: { ...original, message: 'New {{status}}', updatedAt: LAGOS_TIME, version: 2 },
    })
    const listed = await clients.notify.get<{ data: Template[] }>('/notification/template?product=REPLACED')
    expect(listed.body.data).toEqual([(reply.body as { data: Template }).data])
  })

  it('applies a PUT carrying the current version and refuses a stale one with 409', async () => {
    const original = await create('OPTIMISTIC', 1)
    const target = `/notification/template/${original.templateID}`
    const ok = await put(target, { message: 'v2', messageType: 1, productCode: 'OPTIMISTIC', version: 1 })
    expect(ok.body).toMatchObject({ status: 200, data: { version: 2 } })
    const stale = await put(target, {
      message: 'v2 again',
      messageType: 1,
      productCode: 'OPTIMISTIC',
      version: 1,
    })
    expect(stale.status).toBe(409)
    expect(stale.body).toEqual({
      status: 409,
      message: `Template ${original.templateID} is at version 2, not 1: read it again and reapply your change`,
      errors: [{ path: '', code: 'TEMPLATE_VERSION_STALE', message: expect.stringContaining('version 2') }],
    })
  })

  it('moves a template to a free (productCode, messageType) pair, and refuses a taken one with 409', async () => {
    const moving = await create('MOVE-FROM', 0)
    const taken = await create('MOVE-TAKEN', 1)
    const refused = await put(`/notification/template/${moving.templateID}`, {
      message: 'x',
      messageType: 1,
      productCode: 'MOVE-TAKEN',
    })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      message: expect.stringContaining(`(templateID ${taken.templateID})`),
    })
    const moved = await put(`/notification/template/${moving.templateID}`, {
      message: 'moved',
      messageType: 1,
      productCode: 'MOVE-TO',
    })
    expect(moved.body).toMatchObject({
      status: 200,
      data: { templateID: moving.templateID, productCode: 'MOVE-TO', messageType: 1, version: 2 },
    })
    expect(
      (await clients.notify.get<{ data: Template[] }>('/notification/template?product=MOVE-FROM')).body.data,
    ).toEqual([])
    expect(
      (await clients.notify.get<{ data: Template[] }>('/notification/template?product=MOVE-TO')).body.data,
    ).toMatchObject([{ templateID: moving.templateID, message: 'moved' }])
  })

  it('answers 404 for an unknown templateID and 400 for one that is not a number', async () => {
    const unknown = await put('/notification/template/999999', {
      message: 'x',
      messageType: 0,
      productCode: 'P',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({
      status: 404,
      message: 'No notification template has templateID 999999',
      errors: [
        { path: '', code: 'TEMPLATE_NOT_FOUND', message: 'No notification template has templateID 999999' },
      ],
    })
    const bad = await put('/notification/template/abc', { message: 'x', messageType: 0, productCode: 'P' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ status: 400, errors: [{ path: 'path/templateId' }] })
  })

  it('answers 400 for a messageType other than 0 or 1', async () => {
    const original = await create('PUT-BAD', 0)
    const reply = await put(`/notification/template/${original.templateID}`, {
      message: 'x',
      messageType: 3,
      productCode: 'PUT-BAD',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ status: 400, errors: [{ path: 'messageType' }] })
  })
})

describe('POST /notification/email, DELETE /notification/email and GET /notification/email', () => {
  it('adds addresses, keeping one of each whatever the letter case, and lists them', async () => {
    const added = await clients.notify.post('/notification/email', {
      email: ['Ops@Example.com', 'finance@example.com', 'ops@example.COM'],
    })
    expect(added.status).toBe(201)
    expect(added.body).toEqual({ status: 201, message: '2 e-mail addresses added' })
    const again = await clients.notify.post('/notification/email', {
      email: ['OPS@EXAMPLE.COM', 'audit@example.com'],
    })
    expect(again.body).toEqual({ status: 201, message: '1 e-mail address added (1 already on the list)' })
    const listed = await clients.notify.get('/notification/email')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({
      status: 200,
      message: '3 e-mail addresses on the list',
      data: ['audit@example.com', 'finance@example.com', 'Ops@Example.com'],
    })
  })

  it('removes addresses in any letter case, and treats an absent one as a no-op', async () => {
    await clients.notify.post('/notification/email', { email: ['remove.me@example.com'] })
    const removed = await del('/notification/email', {
      email: ['REMOVE.ME@example.com', 'never.there@example.com'],
    })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ status: 200, message: '1 e-mail address removed (1 not on the list)' })
    const again = await del('/notification/email', { email: ['remove.me@example.com'] })
    expect(again.body).toEqual({ status: 200, message: '0 e-mail addresses removed (1 not on the list)' })
    const listed = await clients.notify.get<{ data: string[] }>('/notification/email')
    expect(listed.body.data).not.toContain('remove.me@example.com')
  })

  it('lists every address when the list is longer than one DynamoDB page (500 items)', async () => {
    const many = Array.from({ length: 600 }, (_, i) => `bulk${String(i).padStart(3, '0')}@example.com`)
    for (let i = 0; i < many.length; i += 100) {
      const added = await clients.notify.post('/notification/email', { email: many.slice(i, i + 100) })
      expect(added.status).toBe(201)
    }
    const listed = await clients.notify.get<{ data: string[] }>('/notification/email')
    expect(listed.body.data.filter((e) => e.startsWith('bulk'))).toEqual(many)
    expect(listed.body.data).toEqual([...listed.body.data].sort((a, b) => a.localeCompare(b)))
    for (let i = 0; i < many.length; i += 100)
      await del('/notification/email', { email: many.slice(i, i + 100) })
  })

  it.each([
    ['an invalid address', { email: ['not-an-email'] }, 'email/0'],
    ['an empty list', { email: [] }, 'email'],
    ['a string instead of a list', { email: 'ops@example.com' }, 'email'],
    ['no email field', {}, 'email'],
  ])('answers 400 for %s', async (_, body, path) => {
    for (const send of [
      () => clients.notify.post('/notification/email', body),
      () => del('/notification/email', body),
    ]) {
      const reply = await send()
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ status: 400, errors: [{ path }] })
    }
  })
})
