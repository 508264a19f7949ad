import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'

// LOG_FORMAT=human is what `npm start` sets when it writes to a terminal (scripts/local-server.ts);
// the shared logger reads it when it is first used.
process.env.LOG_LEVEL = 'INFO'
process.env.LOG_FORMAT = 'human'
const { fingerprint, logger } = await import('#lib/platform/log.ts')

let output: CapturedOutput
beforeAll(() => {
  output = captureOutput()
})
afterAll(() => output.restore())

/** What the logger wrote while `log` ran. */
function written(log: () => void): string {
  const from = output.written.length
  log()
  return output.written.slice(from).join('')
}

describe('the human log format', () => {
  it('writes a request as one short line: time, status, route, latency, caller, mode', () => {
    const caller = fingerprint('dev-si-key')
    const line = written(() =>
      logger.info('request', {
        route: 'GET /api/v1/resource/states',
        status: 200,
        durationMs: 12,
        caller,
        mode: 'live',
      }),
    )
    expect(line).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d 200 GET /api/v1/resource/states 12ms ${caller} live\\n$`),
    )
  })

  it('writes anything else with its level and its fields, redacted as the JSON lines are', () => {
    const line = written(() =>
      logger.warn('request refused', { reason: 'unknown_key', secret: 'never-shown' }),
    )
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
