import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'
import { transferBody } from '../../support/transfers.ts'

// This file turns request logs and EMF metrics on (the suite keeps both off) and reads what is written.
process.env.LOG_LEVEL = 'INFO'
process.env.POWERTOOLS_METRICS_DISABLED = 'false'
// Lambda sets this; Powertools reports cold starts only for on-demand initialisation.
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand'
/** Everything written to stdout in this file, across tests. */
let output: CapturedOutput
/** Where the current test's writes begin. */
let testStart = 0

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  output = captureOutput(['stdout'])
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(async () => {
  output?.restore()
  await api?.close()
})
beforeEach(() => {
  testStart = output.written.length
})

/** The lines the current test wrote. */
const lines = () => output.lines(testStart)
const json = (from = lines()) =>
  from.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, any>]
    } catch {
      return []
    }
  })
const requestLogs = () => json().filter((l) => l.message === 'request')
/** EMF documents: the metric names and dimensions of each, and its values. */
const emf = (from = lines()) =>
  json(from)
    .filter((l) => l._aws?.CloudWatchMetrics)
    .map((l) => {
      const directive = l._aws.CloudWatchMetrics[0]
      const names = directive.Metrics.map((m: { Name: string }) => m.Name) as string[]
      const dimensions = Object.fromEntries(
        (directive.Dimensions.flat() as string[]).map((d) => [d, l[d] as string]),
      )
      return { namespace: directive.Namespace as string, names, dimensions, values: names.map((n) => l[n]) }
    })

describe('request log lines', () => {
  it('carry the Lambda context (cold_start, function_request_id) and the caller x-request-id as correlation_id', async () => {
    const correlation = `ops-${randomUUID()}`
    const reply = await clients.si.get('/api/v1/resource/states', { 'x-request-id': correlation })
    expect(reply.status).toBe(200)
    const [log] = requestLogs()
    expect(log).toMatchObject({
      level: 'INFO',
      // The file's first request: this process is a fresh container.
      cold_start: true,
      function_request_id: expect.any(String),
      correlation_id: correlation,
      route: 'GET /api/v1/resource/{list}'.replace('{list}', 'states'),
      status: 200,
    })
    expect(log!.function_request_id).toBe(reply.headers.get('x-request-id'))
    // What the log group already names is not paid for again on every line (CloudWatch bills by the byte).
    for (const key of ['service', 'function_name', 'function_arn', 'function_memory_size', 'sampling_rate'])
      expect(log).not.toHaveProperty(key)
  })

  it('take the trace id of a W3C traceparent first, and answer with it as the reply traceId', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const reply = await clients.switch.post(
      '/api/v1/transactions/balance-enquiry',
      {
        requestId: `REQ-${randomUUID()}`,
        stan: '000001',
        processingCode: '310000',
        accountNumber: '0987654321',
      },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-request-id': 'not-this-one' },
    )
    expect(reply.status).toBe(200)
    expect((reply.body as { traceId: string }).traceId).toBe('4bf92f35-77b3-4da6-a3ce-929d0e0e4736')
    expect(requestLogs()[0]).toMatchObject({ correlation_id: traceId })
  })

  it('carry no correlation_id when none was sent, and not one that was sent before', async () => {
    await clients.si.get('/api/v1/resource/states', { 'x-request-id': 'first' })
    await clients.si.get('/api/v1/resource/states')
    const [first, second] = requestLogs()
    expect(first!.correlation_id).toBe('first')
    expect(second).not.toHaveProperty('correlation_id')
    // A second request in the same container is not a cold start.
    expect(second!.cold_start).toBe(false)
  })

  it('ignore a correlation id that is not a short printable token (no log forging)', async () => {
    await clients.si.get('/api/v1/resource/states', { 'x-request-id': `x${'y'.repeat(200)}` })
    expect(requestLogs()[0]).not.toHaveProperty('correlation_id')
  })
})

describe('EMF metrics', () => {
  it('a transfer emits Requests by route and status class and Transactions by response code, in namespace Einvoicing', async () => {
    const reply = await clients.switch.post('/api/v1/transactions/transfer', transferBody())
    expect(reply.status).toBe(200)
    const metrics = emf().filter((m) => m.names[0] !== 'ColdStart')
    expect(metrics).toEqual([
      {
        namespace: 'Einvoicing',
        names: ['Requests'],
        dimensions: {
          service: 'einvoicing-api',
          route: 'POST /api/v1/transactions/transfer',
          statusClass: '2xx',
        },
        values: [1],
      },
      {
        namespace: 'Einvoicing',
        names: ['Transactions'],
        dimensions: { service: 'einvoicing-api', operation: 'transfer', responseCode: '00' },
        values: [1],
      },
    ])
  })

  it('a declined transfer is counted under its response code (51: insufficient funds)', async () => {
    const reply = await clients.switch.post('/api/v1/transactions/transfer', transferBody({ amount: 1e9 }))
    expect((reply.body as { responseCode: string }).responseCode).toBe('51')
    expect(emf().find((m) => m.names[0] === 'Transactions')?.dimensions.responseCode).toBe('51')
  })

  it('a refused request counts a Refusal with its scheme and reason', async () => {
    const reply = await clients.anonymous.get('/api/v1/resource/states')
    expect(reply.status).toBe(401)
    expect(emf().find((m) => m.names[0] === 'Refusals')).toMatchObject({
      dimensions: { scheme: 'api-signature', reason: 'missing_credentials' },
    })
    expect(emf().find((m) => m.names[0] === 'Requests')?.dimensions.statusClass).toBe('4xx')
  })

  it('ColdStart is emitted once per container (function), with the function name', () => {
    // From the sources every function shares this process's one container; from the bundles each
    // function has its own, as in Lambda.
    const coldStarts = emf(output.lines()).filter((m) => m.names[0] === 'ColdStart')
    const names = coldStarts.map((m) => m.dimensions.function_name)
    expect(names[0]).toBe('resource-states')
    expect(new Set(names).size).toBe(names.length)
    for (const metric of coldStarts) {
      expect(metric).toMatchObject({
        namespace: 'Einvoicing',
        values: [1],
        dimensions: { service: 'einvoicing-api' },
      })
    }
  })
})
