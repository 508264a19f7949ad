import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { verifyApiSignature } from '#lib/platform/auth/api-signature.ts'
import { issueApiClient, issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { verifySwitchSignature } from '#lib/platform/auth/switch-signature.ts'
import { routes } from '#lib/service/routes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'
import { type SigningVector, signingVectors } from '../../support/signing-vectors.ts'

/**
 * The published known-answer vectors (docs/signing-vectors.json) are accepted by the service's own
 * verifiers, called as a request calls them (the client and its secret stored in DynamoDB Local, the
 * clock set to each vector's timestamp): the file cannot drift from what the service checks. The same
 * request with one byte of its body changed is refused, so the acceptance means something.
 */

const { areaA, areaB } = signingVectors

const API_KEY = 'vectors-area-a-key'
const SWITCH_TOKEN = 'vectors-area-b-token'

/** A route of the scheme (the ADMIN key used here may call any Area A route). */
const routeOf = (auth: string) => routes.find((r) => r.auth === auth)!

let api: TestApi
beforeAll(async () => {
  api = await startApi()
  const secrets = new Set(areaA.map((v) => v.secret))
  const switchSecrets = new Set(areaB.map((v) => v.secret))
  expect([secrets.size, switchSecrets.size]).toEqual([1, 1])
  await issueApiClient({
    businessId: DEV.supplier.businessId,
    roles: ['ADMIN'],
    apiKey: API_KEY,
    secret: [...secrets][0]!,
  })
  await issueSwitchClient({ name: 'Vectors switch', token: SWITCH_TOKEN, secret: [...switchSecrets][0]! })
})
afterAll(() => api?.close())
afterEach(() => vi.useRealTimers())

/** The server's clock at the vector's timestamp, as if the request had just been sent. */
function atTimestampOf(v: SigningVector) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date(v.timestamp))
}

const tampered = (body: Buffer) => Buffer.concat([body, Buffer.from(' ')])

describe('docs/signing-vectors.json against the service verifiers', () => {
  it.each(areaA)('$id: Area A verifier accepts it, and refuses it with the body changed', async (v) => {
    atTimestampOf(v)
    const request = (rawBody: Buffer) =>
      verifyApiSignature({
        route: routeOf('api-signature'),
        method: v.method,
        target: v.path,
        headers: { 'x-api-key': API_KEY, 'x-api-timestamp': v.timestamp, 'x-api-signature': v.signature },
        rawBody,
      })
    const body = Buffer.from(v.bodyHex, 'hex')
    await expect(request(tampered(body))).rejects.toThrow(/x-api-signature does not match this request/)
    await expect(request(body)).resolves.toMatchObject({ scheme: 'api-signature', apiKeyId: API_KEY })
  })

  it.each(areaB)('$id: Area B verifier accepts it, and refuses it with the body changed', async (v) => {
    atTimestampOf(v)
    const request = (rawBody: Buffer) =>
      verifySwitchSignature({
        route: routeOf('switch-signature'),
        method: v.method,
        target: v.path,
        headers: {
          authorization: `Bearer ${SWITCH_TOKEN}`,
          'x-timestamp': v.timestamp,
          'x-nonce': v.nonce,
          'x-signature': v.signature,
        },
        rawBody,
      })
    const body = Buffer.from(v.bodyHex, 'hex')
    await expect(request(tampered(body))).rejects.toThrow(/X-Signature does not match this request/)
    await expect(request(body)).resolves.toMatchObject({ scheme: 'switch-signature' })
  })
})
