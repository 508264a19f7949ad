/**
 * bench/signing: what request verification costs.
 *   npx tsx bench/signing.ts
 * Prints, in one run: the CPU cost of verifying an Area A and an Area B signature over a 2 KB body as a
 * ratio to one bare HMAC-SHA256 of that body; then, against DynamoDB Local, the whole verification
 * (client lookup, checks, replay or nonce write) and the latency of the conditional nonce write alone.
 * Issue 7 (secrets encrypted at rest): the cost of opening a stored secret with a warm cache (the
 * usual case: SECRET_CACHE_SECONDS, default 60) and cold (an ESDK decrypt on every request), and the
 * full Area A verification with a plaintext secret (as before), a warm cache and a cold one.
 */
import { randomUUID } from 'node:crypto'
import { decodeSignature, areaACanonical, areaBCanonical, hmac } from '#lib/platform/auth/canonical.ts'
import { parseUtcTimestamp, parseZonedTimestamp, withinWindow } from '#lib/platform/auth/timestamps.ts'
import { matchesAnySecret } from '#lib/platform/auth/verify-hmac.ts'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'

const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(2048 - 10) }))
const secret = 'bench-secret-0123456789'
const secrets = [{ id: '1', secret, createdAt: '' }]

/** Median nanoseconds per call over `rounds` rounds of `perRound` calls. */
function measure(fn: () => void, perRound = 5000, rounds = 9): number {
  for (let i = 0; i < perRound; i++) fn() // warm up
  const samples: number[] = []
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < perRound; i++) fn()
    samples.push(Number(process.hrtime.bigint() - start) / perRound)
  }
  return samples.sort((a, b) => a - b)[Math.floor(rounds / 2)]!
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const a = signAreaA({ apiKey: 'k', secret }, { method: 'POST', target: '/api/v1/si/validate', body })
const b = signAreaB({ token: 't', secret }, { method: 'POST', target: '/api/v1/transactions/transfer', body })

const bare = measure(() => hmac(secret, body.toString('utf8')))
const verifyA = measure(() => {
  const ts = parseZonedTimestamp(a['x-api-timestamp']!)!
  withinWindow(ts)
  const sig = decodeSignature(a['x-api-signature']!)!
  const canonical = areaACanonical({
    method: 'POST',
    target: '/api/v1/si/validate',
    timestamp: a['x-api-timestamp']!,
    body,
  })
  if (!matchesAnySecret(secrets, canonical, sig)) throw new Error('bench: A signature should verify')
})
const verifyB = measure(() => {
  const ts = parseUtcTimestamp(b['x-timestamp']!)!
  withinWindow(ts)
  const sig = decodeSignature(b['x-signature']!)!
  const canonical = areaBCanonical({
    method: 'POST',
    target: '/api/v1/transactions/transfer',
    timestamp: b['x-timestamp']!,
    nonce: b['x-nonce']!,
    body,
  })
  if (!matchesAnySecret(secrets, canonical, sig)) throw new Error('bench: B signature should verify')
})

console.log('CPU cost per request, 2 KB body (median of 9 rounds x 5,000 calls)')
console.log(`  bare HMAC-SHA256 of the body    ${(bare / 1000).toFixed(2)} us   1.00x`)
console.log(
  `  Area A verification (CPU part)  ${(verifyA / 1000).toFixed(2)} us   ${(verifyA / bare).toFixed(2)}x`,
)
console.log(
  `  Area B verification (CPU part)  ${(verifyB / 1000).toFixed(2)} us   ${(verifyB / bare).toFixed(2)}x`,
)

// Opening the stored (encrypted) secret: the local raw AES keyring, as in DynamoDB Local runs.
const { clearFieldCache, decryptField, encryptField } = await import('#lib/platform/crypto/fields.ts')
const context = { record: 'api-client', id: 'bench', field: 'secret' }
const sealed = await encryptField(secret, context)
async function measureAsync(fn: () => Promise<unknown>, perRound: number, rounds = 9): Promise<number> {
  for (let i = 0; i < perRound; i++) await fn()
  const samples: number[] = []
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < perRound; i++) await fn()
    samples.push(Number(process.hrtime.bigint() - start) / perRound)
  }
  return samples.sort((x, y) => x - y)[Math.floor(rounds / 2)]!
}
const openWarm = await measureAsync(() => decryptField(sealed, context, { cache: true }), 5000)
const openCold = await measureAsync(() => {
  clearFieldCache()
  return decryptField(sealed, context, { cache: true })
}, 200)
console.log(
  `  open stored secret, warm cache  ${(openWarm / 1000).toFixed(2)} us   ${(openWarm / bare).toFixed(2)}x`,
)
console.log(
  `  open stored secret, cold (ESDK) ${(openCold / 1000).toFixed(2)} us   ${(openCold / bare).toFixed(2)}x`,
)

// The storage side: against DynamoDB Local, as the tests run it.
const dynamo = await startDynamoDbLocal()
try {
  process.env.TABLE_NAME = `bench-${randomUUID()}`
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
  process.env.AWS_REGION ??= 'eu-west-1'
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME)
  const { seedDevelopmentCredentials, DEV } = await import('../scripts/local/dev-credentials.ts')
  await seedDevelopmentCredentials()
  const { spendNonce } = await import('#lib/platform/auth/replay-store.ts')
  const { verifyApiSignature } = await import('#lib/platform/auth/api-signature.ts')
  const { verifySwitchSignature } = await import('#lib/platform/auth/switch-signature.ts')
  const { findRoute } = await import('#lib/service/routes.ts')
  const runs = 300
  const time = async (fn: () => Promise<unknown>) => {
    const samples: number[] = []
    for (let i = 0; i < runs; i++) {
      const start = performance.now()
      await fn()
      samples.push(performance.now() - start)
    }
    return median(samples.slice(20))
  }
  const nonceWrite = await time(() => spendNonce('bench', randomUUID(), new Date()))
  const routeA = findRoute('POST /api/v1/si/validate')!
  const routeB = findRoute('POST /api/v1/transactions/transfer')!
  const fullA = await time(() => {
    const headers = signAreaA(DEV.clients.si, { method: 'POST', target: routeA.path, body })
    return verifyApiSignature({ route: routeA, method: 'POST', target: routeA.path, headers, rawBody: body })
  })
  const fullB = await time(() => {
    const headers = signAreaB(
      { token: DEV.switch.token, secret: DEV.switch.secret },
      { method: 'POST', target: routeB.path, body },
    )
    return verifySwitchSignature({
      route: routeB,
      method: 'POST',
      target: routeB.path,
      headers,
      rawBody: body,
    })
  })
  console.log(
    `\nAgainst DynamoDB Local (median of ${runs - 20} sequential requests; includes the client's signing)`,
  )
  console.log(`  conditional nonce write alone   ${nonceWrite.toFixed(2)} ms`)
  console.log(`  Area A full verification        ${fullA.toFixed(2)} ms   (client read + replay write)`)
  console.log(
    `  Area B full verification        ${fullB.toFixed(2)} ms   (token read + client read + nonce write)`,
  )

  // Issue 7: the same Area A verification with the secret stored as before (plaintext), with the
  // encrypted secret and a warm cache, and cold (cache emptied before every request).
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb')
  const { db, tableName } = await import('#lib/platform/db/client.ts')
  const { keys } = await import('#lib/platform/db/keys.ts')
  const { issueApiClient } = await import('#lib/platform/auth/credentials.ts')
  const plain = { apiKey: 'bench-plain-key', secret: 'bench-plain-secret' }
  await issueApiClient({ ...plain, businessId: DEV.supplier.businessId, roles: ['SI'] })
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiClient(plain.apiKey),
      UpdateExpression: 'SET secrets = :s',
      ExpressionAttributeValues: { ':s': [{ id: 'plain', secret: plain.secret, createdAt: '' }] },
    }),
  )
  const verifyAs = (credentials: { apiKey: string; secret: string }) => {
    const headers = signAreaA(credentials, { method: 'POST', target: routeA.path, body })
    return verifyApiSignature({ route: routeA, method: 'POST', target: routeA.path, headers, rawBody: body })
  }
  // Interleaved in rounds, so load from other processes on the machine hits all three alike.
  const plainS: number[] = []
  const warmS: number[] = []
  const coldS: number[] = []
  const once = async (fn: () => Promise<unknown>, into: number[]) => {
    const start = performance.now()
    await fn()
    into.push(performance.now() - start)
  }
  for (let i = 0; i < runs; i++) {
    await once(() => verifyAs(plain), plainS)
    await once(() => verifyAs(DEV.clients.si), warmS)
    clearFieldCache()
    await once(() => verifyAs(DEV.clients.si), coldS)
  }
  const [p, w, c] = [plainS, warmS, coldS].map((xs) => median(xs.slice(20))) as [number, number, number]
  console.log(`\nArea A full verification, secret at rest (issue 7; ${runs - 20} interleaved rounds)`)
  console.log(`  plaintext secret (before)       ${p.toFixed(2)} ms   1.00x`)
  console.log(`  encrypted, warm secret cache    ${w.toFixed(2)} ms   ${(w / p).toFixed(2)}x`)
  console.log(`  encrypted, cold (no cache)      ${c.toFixed(2)} ms   ${(c / p).toFixed(2)}x`)
} finally {
  await dynamo.stop()
}
