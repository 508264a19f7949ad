import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { chooseTarget } from '../../../scripts/cli/target.ts'
import type { LocalServerState } from '../../../scripts/local/state.ts'

/** How the CLI picks its table: the running npm start's by default, never AWS by accident. */
const dir = mkdtempSync(join(tmpdir(), 'cli-target-'))
const file = join(dir, 'server.json')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const state = (pid: number): LocalServerState => ({
  pid,
  url: 'http://127.0.0.1:3000',
  dynamoEndpoint: 'http://127.0.0.1:40001',
  tableName: 'einvoicing-local',
  keysDir: '/keys',
  dataKeyDir: '/keys',
  startedAt: '2026-11-21T10:00:00.000Z',
})
const running = () => writeFileSync(file, JSON.stringify(state(process.pid)))
/** A pid no process has: above Linux's pid_max. */
const stopped = () => writeFileSync(file, JSON.stringify(state(2 ** 22 + 1)))

beforeEach(() => rmSync(file, { force: true }))
const choose = (options: Parameters<typeof chooseTarget>[0], env: Record<string, string> = {}) =>
  chooseTarget(options, { LOCAL_SERVER_FILE: file, ...env })

describe('the CLI target', () => {
  it('is the running local server when nothing names a table', () => {
    running()
    expect(choose({})).toMatchObject({
      kind: 'local-server',
      endpoint: 'http://127.0.0.1:40001',
      table: 'einvoicing-local',
    })
    expect(choose({ table: 'einvoicing-local' })).toMatchObject({ kind: 'local-server' })
  })

  it('says clearly that no local server runs, whether the file is absent or stale', () => {
    expect(choose({})).toMatchObject({
      kind: 'none',
      message: expect.stringMatching(
        /^No local server is running \(.*does not exist\)\.\nStart one with "npm start"/,
      ),
    })
    stopped()
    expect(choose({})).toMatchObject({ kind: 'none', message: expect.stringContaining('has stopped') })
  })

  it('never goes to AWS for a --table without a region', () => {
    running()
    expect(choose({ table: 'einvoicing-prod' })).toMatchObject({
      kind: 'none',
      message: expect.stringContaining('add --region REGION'),
    })
    expect(choose({ table: 'einvoicing-prod', region: 'eu-west-1' })).toEqual({
      kind: 'aws',
      table: 'einvoicing-prod',
      region: 'eu-west-1',
    })
    expect(choose({}, { TABLE_NAME: 'einvoicing-prod', AWS_REGION: 'eu-west-1' })).toMatchObject({
      kind: 'aws',
    })
  })

  it('uses an explicit endpoint, with the local server table when it is that server', () => {
    running()
    expect(choose({ endpoint: 'http://127.0.0.1:40001' })).toMatchObject({
      kind: 'endpoint',
      table: 'einvoicing-local',
      server: { pid: process.pid },
    })
    expect(choose({ endpoint: 'http://127.0.0.1:9999', table: 'mine' })).toEqual({
      kind: 'endpoint',
      endpoint: 'http://127.0.0.1:9999',
      table: 'mine',
      server: undefined,
    })
  })
})
