import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, startDynamoDbLocal } from '../../../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../../../scripts/local/table.ts'

/**
 * `DATA_DIR=d npm start`, stopped, started again: the second start finds its table and seeds it again
 * (issue 33). The folder did not exist before the first start: it is made.
 */
describe('a restart on a kept DATA_DIR', () => {
  const parent = mkdtempSync(join(tmpdir(), 'kept-data-'))
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('creates a missing folder, and seeds the kept table again without a conflict', async () => {
    const dataDir = join(parent, 'not', 'there', 'yet')
    const tableName = `kept-${randomUUID()}`
    process.env.TABLE_NAME = tableName
    process.env.STAGE = 'local'
    process.env.AWS_REGION = 'eu-west-1'
    delete process.env.DYNAMODB_LOCAL_DATABASE
    const { seedLocal } = await import('../../../scripts/local/seed.ts')
    const { getBusiness } = await import('#lib/registry/businesses.ts')
    const { DEV } = await import('../../../scripts/local/dev-credentials.ts')
    // One port for both starts: the handlers' client and config are made once, as in one process.
    const port = await freePort()
    process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${port}`
    for (const run of [1, 2]) {
      const dynamo = await startDynamoDbLocal({ dataDir, port, heapMb: 256 })
      try {
        await ensureTable(dynamo.endpoint, tableName)
        await expect(seedLocal(), `seeding on start ${run}`).resolves.toBeUndefined()
        expect((await getBusiness(DEV.supplier.businessId))?.tin).toBe(DEV.supplier.tin)
      } finally {
        await dynamo.stop()
      }
      expect(existsSync(dataDir)).toBe(true)
    }
  }, 120_000)
})
