import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DynamoDbLocal, startDynamoDbLocal } from '../../../scripts/local/dynamodb-local.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * Dependencies going down, seen through the health check: this file runs its OWN DynamoDB Local (so
 * stopping it affects no other test file) and points KEYS_DIR (where the signing key and the QR
 * authority key live locally) at a folder that cannot exist, so neither key can load.
 */
let dynamo: DynamoDbLocal
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  dynamo = await startDynamoDbLocal({ heapMb: 256 })
  // /dev/null is a file: no folder can be made under it, so the key load fails (ENOTDIR), even as root.
  process.env.KEYS_DIR = '/dev/null/keys'
  // The data key (issue 7) is another dependency: it stays available in its usual folder.
  process.env.DATA_KEY_DIR = fileURLToPath(new URL('../../../.local/keys', import.meta.url))
  api = await startApi({ dynamoEndpoint: dynamo.endpoint })
  clients = devClients(api.url)
})
let keysDir: string | undefined
afterAll(async () => {
  await api?.close()
  await dynamo?.stop()
  if (keysDir) await rm(keysDir, { recursive: true, force: true })
})

const PATH = '/api/v1/health-check'

describe('the health check when a dependency is down', () => {
  it('is DEGRADED (200) while only the signing and QR keys are unavailable', async () => {
    const anonymous = await clients.anonymous.get(PATH)
    expect(anonymous.status).toBe(200)
    expect(anonymous.body).toEqual({
      healthy: true,
      status: 'DEGRADED',
      execTime: expect.stringMatching(/^\d+ms$/),
    })
    const si: any = await clients.si.get(PATH)
    expect(si.body.components.dependencies).toEqual({
      dynamodb: { status: 'UP' },
      signingKeys: { status: 'DOWN' },
      qrAuthorityKey: { status: 'DOWN' },
    })
    // An ADMIN sees no more: the error is in the operator's log (CONTRACT section 14).
    const admin: any = await clients.admin.get(PATH)
    expect(admin.body.components.dependencies.qrAuthorityKey).toEqual({ status: 'DOWN' })
  })

  it('answers the endpoints that need the key with 503, and the others as usual', async () => {
    const body = {
      invoice_number: 'DOWN001',
      service_id: DEV.supplier.serviceId,
      business_id: DEV.supplier.businessId,
    }
    const qr: any = await clients.si.post('/api/v1/si/generate-qr-code', body)
    expect(qr.status).toBe(503)
    expect(qr.body).toMatchObject({ status: 'FAILED', error: { status: '503 SERVICE_UNAVAILABLE' } })
    expect((await clients.si.post('/api/v1/si/generate-irn', body)).status).toBe(200)
  })

  it('is UP again as soon as the key can be loaded (a failed load is retried, not cached)', async () => {
    keysDir = await mkdtemp(join(tmpdir(), 'qr-keys-'))
    process.env.KEYS_DIR = keysDir
    const admin: any = await clients.admin.get(PATH)
    expect(admin.body.status).toBe('UP')
    expect(admin.body.components.dependencies.qrAuthorityKey).toEqual({ status: 'UP' })
    expect(admin.body.components.dependencies.signingKeys).toEqual({ status: 'UP' })
  })

  it('is DOWN (503) once DynamoDB stops, even with the key loaded: without the table nothing can be served', async () => {
    await dynamo.stop()
    const anonymous = await clients.anonymous.get(PATH)
    expect(anonymous.status).toBe(503)
    expect(anonymous.body).toEqual({
      healthy: false,
      status: 'DOWN',
      execTime: expect.stringMatching(/^\d+ms$/),
    })
    // Authentication itself reads the API key from DynamoDB, so it is the auth layer that answers 503.
    const si: any = await clients.si.get(PATH)
    expect(si.status).toBe(503)
    expect(si.body).toEqual({
      timestamp: expect.any(String),
      message: 'A service this request depends on is unavailable: retry shortly',
      details: expect.any(String),
      status: '503 SERVICE_UNAVAILABLE',
      errors: [{ path: '', code: 'UNAVAILABLE', message: expect.any(String) }],
    })
    const irn: any = await clients.si.post('/api/v1/si/generate-irn', { invoice_number: 'DOWN002' })
    expect(irn.status).toBe(503)
    expect(irn.body.status).toBe('503 SERVICE_UNAVAILABLE')
  })
})
