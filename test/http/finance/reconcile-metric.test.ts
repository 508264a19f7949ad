import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { RECONCILIATION_METRIC, RECONCILIATION_NAMESPACE } from '#lib/finance/reconcile-metric.ts'
import { openAccount } from '#lib/ledger/repository.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { captureOutput } from '../../support/output.ts'

// This file turns EMF metrics on (the suite keeps them off) to read what the daily function writes.
process.env.POWERTOOLS_METRICS_DISABLED = 'false'

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

/** Runs the scheduled function in-process, returning its result and the EMF lines it wrote. */
async function runDaily() {
  const output = captureOutput(['stdout'])
  try {
    // As its schedule invokes it: from its bundle when the run serves the API from bundles.
    const result = await api.workers.invoke('reconcile-daily')
    const emf = output
      .lines()
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line))
    return { result, emf }
  } finally {
    output.restore()
  }
}

const metricOf = (emf: Record<string, unknown>[]) => emf.filter((m) => RECONCILIATION_METRIC in m)

describe('the daily reconciliation function', () => {
  it('publishes 0 differences as its metric when everything agrees', async () => {
    const { result, emf } = await runDaily()
    expect(result).toEqual({ differences: 0 })
    expect(metricOf(emf)).toEqual([
      expect.objectContaining({
        _aws: expect.objectContaining({
          CloudWatchMetrics: [
            expect.objectContaining({
              Namespace: RECONCILIATION_NAMESPACE,
              Dimensions: [['service']],
              Metrics: [expect.objectContaining({ Name: RECONCILIATION_METRIC, Unit: 'Count' })],
            }),
          ],
        }),
        service: 'einvoicing-api',
        [RECONCILIATION_METRIC]: 0,
      }),
    ])
  })

  it('publishes the count when a balance was changed directly in the table', async () => {
    await openAccount({ accountNumber: '7500000001', name: 'Metric account', balanceKobo: 1_000 })
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account('7500000001'),
        UpdateExpression: 'SET balanceKobo = :changed',
        ExpressionAttributeValues: { ':changed': 999 },
      }),
    )
    const { result, emf } = await runDaily()
    expect(result).toEqual({ differences: 1 })
    expect(metricOf(emf)).toEqual([expect.objectContaining({ [RECONCILIATION_METRIC]: 1 })])
  })
})
