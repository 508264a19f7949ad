import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// LOG_FORMAT=human is what `npm start` sets when it writes to a terminal (scripts/local-server.ts);
// the shared logger reads it when it is first used.
process.env.LOG_LEVEL = 'INFO'
process.env.LOG_FORMAT = 'human'
const { fingerprint, logger } = await import('#lib/platform/log.ts')

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

describe('the human log format', () => {
  it('writes a request as one short line: time, status, route, latency, caller, mode', () => {
    captured.length = 0
    const caller = fingerprint('dev-si-key')
    logger.info('request', {
      route: 'GET /api/v1/resource/states',
      status: 200,
      durationMs: 12,
      caller,
      mode: 'live',
    })
    expect(captured.join('')).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d 200 GET /api/v1/resource/states 12ms ${caller} live\\n$`),
    )
  })

  it('writes anything else with its level and its fields, redacted as the JSON lines are', () => {
    captured.length = 0
    logger.warn('request refused', { reason: 'unknown_key', secret: 'never-shown' })
    const line = captured.join('')
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d WARN request refused \{"reason":"unknown_key","secret":"\[REDACTED\]"\}\n$/,
    )
    expect(line).not.toContain('never-shown')
  })

  it('fingerprints keys apart that share their first four characters, and shows none of a short one', () => {
    expect(fingerprint('dev-si-key')).toMatch(/^key:dev-:[0-9a-f]{12}$/)
    expect(fingerprint('dev-si-key')).not.toBe(fingerprint('dev-app-key'))
    expect(fingerprint('shortkey', 'admin')).toMatch(/^admin::[0-9a-f]{12}$/)
  })
})
