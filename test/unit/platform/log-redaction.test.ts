import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The shared logger reads LOG_LEVEL when lib/platform/log.ts is first imported; the suite keeps it silent.
process.env.LOG_LEVEL = 'DEBUG'
const { logger, REDACTED, REDACTION_LIST } = await import('#lib/platform/log.ts')

const captured: string[] = []
const originalOut = process.stdout.write.bind(process.stdout)
const originalErr = process.stderr.write.bind(process.stderr)
beforeAll(() => {
  const capture = (chunk: unknown) => {
    captured.push(String(chunk))
    return true
  }
  process.stdout.write = capture as typeof process.stdout.write
  process.stderr.write = capture as typeof process.stderr.write
})
afterAll(() => {
  process.stdout.write = originalOut
  process.stderr.write = originalErr
})

/** Logs `fields` through the shared logger and returns the lines it wrote. */
function logged(fields: Record<string, unknown>): string {
  captured.length = 0
  logger.info('redaction check', fields)
  return captured.join('')
}

/** One field per category of the list, each with a value no other field has. */
const SAMPLES: Record<string, Record<string, string>> = {
  secrets: { secret: 'S-1-plain', hmac_secret: 'S-2-hmac', api_secret: 'S-3-api', password: 'S-4-pw' },
  signatures: { 'x-api-signature': 'G-1-sig', signature: 'G-2-ed25519', 'x-signature': 'G-3-areab' },
  tokens: { token: 'T-1-tok', bearer_token: 'T-2-bearer', accessToken: 'T-3-access' },
  'authorization headers': { authorization: 'Bearer A-1-auth', Authorization: 'Bearer A-2-Auth' },
  notes: { note: 'N-1-the-note', payment_terms_note: 'N-2-terms' },
  'full API keys': { 'x-api-key': 'K-1-dev-si-key', apiKey: 'K-2-apikey', apiKeyId: 'K-3-keyid' },
  'private keys': { privateKey: 'P-1-private', private_key_pem: 'P-2-pem', signingKeyPem: 'P-3-pem' },
}
const allValues = Object.values(SAMPLES).flatMap((fields) => Object.values(fields))

describe('the shared logger', () => {
  it('has a redaction entry for every category the data protection rules name', () => {
    expect(REDACTION_LIST.map((r) => r.category)).toEqual(Object.keys(SAMPLES))
  })

  it.each(Object.entries(SAMPLES))('never writes %s, at the top level or nested', (_category, fields) => {
    const out = logged({
      ...fields,
      request: { headers: { ...fields }, body: { invoice: { ...fields } } },
      items: [{ ...fields }],
      irn: 'INV001-94ND90NR-20261121',
    })
    for (const value of Object.values(fields)) expect(out).not.toContain(value)
    expect(out).toContain(REDACTED)
    // A harmless field next to them is logged as is.
    expect(out).toContain('INV001-94ND90NR-20261121')
  })

  it('writes none of them when they are all logged together, and keeps the harmless fields', () => {
    const everything = Object.assign({}, ...Object.values(SAMPLES)) as Record<string, string>
    const out = logged({
      event: { headers: everything, deep: { deeper: { deepest: everything } } },
      status: 'SIGNED',
      businessId: '11111111-1111-4111-8111-111111111111',
    })
    for (const value of allValues) expect(out).not.toContain(value)
    const line = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(line).toMatchObject({
      message: 'redaction check',
      status: 'SIGNED',
      businessId: '11111111-1111-4111-8111-111111111111',
      event: {
        headers: { note: REDACTED, 'x-api-key': REDACTED },
        deep: { deeper: { deepest: { token: REDACTED } } },
      },
    })
  })
})
