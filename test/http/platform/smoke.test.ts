import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runSmoke, type SmokeCredentials } from '../../../scripts/smoke/checks.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

const all: SmokeCredentials = {
  apiKey: DEV.clients.si.apiKey,
  apiSecret: DEV.clients.si.secret,
  switchToken: DEV.switch.token,
  switchSecret: DEV.switch.secret,
  account: '0987654321',
  merchantToken: DEV.merchants[0].token,
  merchantId: DEV.merchants[0].merchantId,
  notifyToken: DEV.notifyAdmin.token,
}

describe('npm run smoke', () => {
  it('passes every area against the local server with the development credentials', async () => {
    const rows = await runSmoke(api.url, all)
    expect(rows.map((r) => [r.check, r.outcome])).toEqual(rows.map((r) => [r.check, 'PASS']))
    expect(rows.map((r) => r.check.slice(0, 2))).toEqual(expect.arrayContaining(['A:', 'B:', 'C:', 'D:']))
  })

  it('fails the areas whose credentials are wrong, and skips those not given', async () => {
    const rows = await runSmoke(api.url, { apiKey: DEV.clients.si.apiKey, apiSecret: 'wrong' })
    const outcome = (prefix: string) => rows.filter((r) => r.check.startsWith(prefix)).map((r) => r.outcome)
    expect(outcome('A:')).toEqual(['FAIL', 'FAIL'])
    expect(rows.find((r) => r.check.startsWith('A:'))!.detail).toMatch(/^HTTP 401/)
    expect([...outcome('B:'), ...outcome('C:'), ...outcome('D:')]).toEqual(['SKIP', 'SKIP', 'SKIP'])
  })

  it('prints the table and exits 1 when a check fails, taking credentials from the environment', async () => {
    // Asynchronous: the server under test runs in this process and must keep answering.
    const run: { stdout: string; code?: number } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/smoke.ts', '--url', api.url, '--strict'],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          SMOKE_API_KEY: DEV.clients.si.apiKey,
          SMOKE_API_SECRET: DEV.clients.si.secret,
        },
      },
    ).catch(
      // A non-zero exit rejects, with the output on the error.
      (error: { stdout: string; code: number }) => error,
    )
    expect(run.stdout).toMatch(/^PASS {2}A: signed reference list \(countries\)/m)
    expect(run.stdout).toMatch(/^SKIP {2}B: balance enquiry/m)
    // --strict: a skipped area fails the run.
    expect(run.stdout).toContain('Smoke test FAILED')
    expect(run.code).toBe(1)
  })
})
