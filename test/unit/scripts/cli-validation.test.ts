import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { DEV } from '../../../scripts/local/dev-credentials.ts'
import { dropTable, ensureTable } from '../../../scripts/local/table.ts'
import { type CliTarget, runCli } from '../../support/cli.ts'

/**
 * The CLI checks what it stores with the API's own schemas and says what it is doing (issue 34, point
 * 7): against a seeded table of its own in the run's DynamoDB Local, as `npm start` seeds it.
 */
const keysDir = mkdtempSync(join(tmpdir(), 'cli-validation-keys-'))
let target: CliTarget
beforeAll(async () => {
  const dynamoEndpoint = inject('dynamoEndpoint')
  const tableName = `cli-validation-${randomUUID()}`
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    STAGE: 'local',
    AWS_REGION: 'eu-west-1',
    KEYS_DIR: keysDir,
    DYNAMODB_LOCAL_DATABASE: `test${randomUUID().replaceAll('-', '')}`,
  })
  await ensureTable(dynamoEndpoint, tableName)
  await (await import('../../../scripts/local/seed.ts')).seedLocal()
  target = { tableName, dynamoEndpoint }
})
afterAll(async () => {
  if (target) await dropTable(target.dynamoEndpoint, target.tableName)
  rmSync(keysDir, { recursive: true, force: true })
})

const cli = (...args: string[]) => runCli(target, ...args)

describe('CLI input checked with the API schemas', () => {
  it('refuses a merchant token for a merchant never added, saying how to add it', async () => {
    const refused = await cli('merchant', 'issue', '--merchant', 'MRC9999')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      'No merchant MRC9999 is registered: add it first with\n  npm run cli -- merchant add --id MRC9999 --name "Its name"',
    )
    expect(refused.stdout).not.toContain('bearer_token')
    expect((await cli('merchant', 'add', '--id', 'MRC9999', '--name', 'Late Shop')).code).toBe(0)
    const issued = await cli('merchant', 'issue', '--merchant', 'MRC9999')
    expect(issued.code).toBe(0)
    expect(issued.stdout).toContain('"bearer_token"')
  }, 60_000)

  it('refuses a merchant id a transfer could never name', async () => {
    const refused = await cli('merchant', 'issue', '--merchant', 'MRC 1!')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(
      '--merchant must be a merchant id of 1 to 32 letters, digits, "_" or "-" (got MRC 1!)',
    )
  }, 30_000)

  it('refuses a business whose TIN, e-mail or service id the API would refuse, naming what is wanted', async () => {
    const tin = await cli('business', 'create', '--name', 'Short Ltd', '--tin', '123')
    expect([tin.code, tin.stderr]).toEqual([
      2,
      expect.stringContaining('--tin must be a TIN of the form NNNNNNNN-NNNN'),
    ])
    const email = await cli(
      'business',
      'create',
      '--name',
      'Mail Ltd',
      '--tin',
      '44444444-0001',
      '--email',
      'nope',
    )
    expect([email.code, email.stderr]).toEqual([
      2,
      expect.stringContaining('--email must be an e-mail address, e.g. ops@example.com (got nope)'),
    ])
    const service = await cli(
      'business',
      'create',
      '--name',
      'Svc Ltd',
      '--tin',
      '44444444-0002',
      '--service-id',
      'AB-1',
    )
    expect([service.code, service.stderr]).toEqual([
      2,
      expect.stringContaining(
        '--service-id must be 8 letters or digits, as the authority assigns it (got AB-1)',
      ),
    ])
    const ok = await cli(
      'business',
      'create',
      '--name',
      'Good Ltd',
      '--tin',
      '44444444-0003',
      '--email',
      'ops@example.com',
    )
    expect(ok.code).toBe(0)
  }, 60_000)
})

describe('long CLI commands say what they are doing, the summary first', () => {
  it('encryption migrate shows the items scanned, the rate and the time left, then its summary first', async () => {
    const run = await cli('encryption', 'migrate')
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(
      /encryption migrate: scanned [\d,]+ of [\d,]+ items \([\d,]+\/s(, \d+ s left)?\)/,
    )
    expect(run.stdout.split('\n')[0]).toMatch(
      /^Encrypted \d+ of \d+ protected values \(\d+ already encrypted\) in [\d.]+ s\.$/,
    )
  }, 60_000)

  it('invoices void-gaps counts its settle wait down, and prints its verdict first', async () => {
    const run = await cli(
      'invoices',
      'void-gaps',
      '--business',
      DEV.supplier.businessId,
      '--settle-seconds',
      '2',
    )
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('void-gaps: waiting: 2 s left')
    expect(run.stderr).toContain('void-gaps: waiting: 1 s left')
    expect(run.stdout.split('\n')[0]).toMatch(/^No gaps in live mode|^\d+ gap\(s\) voided in live mode/)
  }, 60_000)

  it('credentials list prints its count before the lines', async () => {
    const run = await cli('credentials', 'list', '--kind', 'merchant')
    expect(run.stdout.split('\n')[0]).toMatch(/^\d+ merchant credentials?$/)
  }, 30_000)
})
