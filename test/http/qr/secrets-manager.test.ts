import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { mockClient } from 'aws-sdk-client-mock'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keyFromFile, keyFromSecret } from '#lib/qr/authority-key.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { freshInvoiceNumber } from '../../support-invoices/requests.ts'

/**
 * The AWS path of the QR authority key: with QR_KEY_SECRET_ARN set, the key comes from Secrets Manager
 * (mocked here with aws-sdk-client-mock; DynamoDB stays real), once per container.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:einvoicing-qr-authority-key-AbCdEf'
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

const secrets = mockClient(SecretsManagerClient)
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  process.env.QR_KEY_SECRET_ARN = SECRET_ARN
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(async () => {
  secrets.restore()
  delete process.env.QR_KEY_SECRET_ARN
  await api?.close()
})

const body = () => ({
  invoice_number: freshInvoiceNumber(),
  service_id: DEV.supplier.serviceId,
  business_id: DEV.supplier.businessId,
})

describe('the QR authority key from Secrets Manager', () => {
  it('answers 503 while the secret cannot be read, and the health check says DEGRADED', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error('Secrets Manager unreachable'), { name: 'InternalServiceError' }))
    const reply: any = await clients.si.post('/api/v1/si/generate-qr-code', body())
    expect(reply.status).toBe(503)
    expect(reply.body.error.status).toBe('503 SERVICE_UNAVAILABLE')
    expect(reply.body.message).toMatch(/QR authority key is not available/)
    const health: any = await clients.admin.get('/api/v1/health-check')
    expect(health.status).toBe(200)
    expect(health.body.status).toBe('DEGRADED')
    // Why it is down is the operator's to read, in the log (CONTRACT section 14).
    expect(health.body.components.dependencies.qrAuthorityKey).toEqual({ status: 'DOWN' })
  })

  it('encrypts for the key in the secret once it is readable, loading it once per container', async () => {
    secrets.reset()
    secrets.on(GetSecretValueCommand, { SecretId: SECRET_ARN }).resolves({ SecretString: pem })
    const replies: any[] = []
    for (let i = 0; i < 3; i++) replies.push(await clients.si.post('/api/v2/si/generate-qr-code', body()))
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200])
    const png = PNG.sync.read(Buffer.from(replies[0].body.data.qr_code_file_bytes, 'base64'))
    const text = jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)!.data
    const plaintext = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(text, 'base64'),
    )
    expect(plaintext.toString()).toMatch(/^\{"irn":"[A-Z0-9]+-94ND90NR-\d{8}\.\d+","certificate":"[^"]+"\}$/)
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1)
  })

  it("reports the loaded key as UP, its id and source only in the operator's log (CONTRACT section 14)", async () => {
    const health: any = await clients.admin.get('/api/v1/health-check')
    expect(health.body.status).toBe('UP')
    expect(health.body.components.dependencies.qrAuthorityKey).toEqual({ status: 'UP' })
  })
})

describe('the secret and the key file', () => {
  it('reads the key from a secret holding PEM or JSON {"privateKey": PEM}, and refuses anything else', () => {
    const direct = keyFromSecret(pem, SECRET_ARN)
    expect(keyFromSecret(JSON.stringify({ privateKey: pem }), SECRET_ARN).keyId).toBe(direct.keyId)
    expect(() => keyFromSecret('', SECRET_ARN)).toThrow(/holds no PEM private key/)
    expect(() => keyFromSecret('{"privateKey": 1', SECRET_ARN)).toThrow(/holds no PEM private key/)
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString()
    expect(() => keyFromSecret(small, SECRET_ARN)).toThrow(/must be RSA-2048/)
  })

  it('creates the local key file once when many loaders race, and every loader gets that key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qr-keys-'))
    try {
      const keys = await Promise.all(Array.from({ length: 8 }, () => keyFromFile(dir)))
      expect(new Set(keys.map((k) => k.keyId)).size).toBe(1)
      expect(await readdir(dir)).toEqual(['qr-authority-rsa2048.pem'])
      expect((await stat(join(dir, 'qr-authority-rsa2048.pem'))).mode & 0o777).toBe(0o600)
      expect((await keyFromFile(dir)).keyId).toBe(keys[0]!.keyId)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
