import { beforeAll, describe, expect, it } from 'vitest'
import { AREA_B_RETRY_BUDGET_MS, FINAL_WITHIN_SECONDS } from '#lib/ledger/final-within.ts'
import { functionsOf, routes } from '#lib/service/routes.ts'
import { logicalIdOf, type SynthesizedStage, synthStage } from './stage-templates.ts'

/**
 * CONTRACT 24, "final within 10 s": every Area B request has committed or failed for good within
 * 10 s of its receipt, so a status query 15 s after a switch's timeout is conclusive
 * (docs/payments.md). Lambda ends an invocation at its timeout, but its clock starts after a cold
 * start's initialisation (up to about 2 s here, not counted in the timeout), and a TransactWriteItems
 * sent just before the end still commits or fails at DynamoDB (allowed 2 s): so an Area B function
 * may run 6 s at most. Raising an Area B timeout past that fails here; so does a gateway that would
 * give up on a function before its timeout (the switch would get a gateway error while the transfer
 * could still commit).
 */
const COLD_START_SECONDS = 2
const IN_FLIGHT_SECONDS = 2
const BOUND_SECONDS = FINAL_WITHIN_SECONDS - COLD_START_SECONDS - IN_FLIGHT_SECONDS

const areaB = [...functionsOf(routes)].filter(([, served]) => served.some((r) => r.area === 'B'))

let prod: SynthesizedStage
beforeAll(() => {
  prod = synthStage({ stage: 'prod' })
}, 120_000)

const functionResource = (functionId: string) => {
  const fn = prod.stage.functions.get(functionId)!
  return prod.apiTemplate.toJSON().Resources[logicalIdOf(fn.function)].Properties
}

describe('Area B functions are final within 10 s (CONTRACT 24)', () => {
  it('covers every Area B function of the route table, the status query, transfer and reversal among them', () => {
    expect(BOUND_SECONDS).toBe(6)
    expect(areaB.map(([functionId]) => functionId)).toEqual(
      expect.arrayContaining([
        'transactions-transfer',
        'transactions-reversal',
        'transactions-status-query',
        'transactions-name-enquiry',
        'transactions-balance-enquiry',
      ]),
    )
  })

  it(`deploys each with a timeout of at most ${BOUND_SECONDS} s, its declaration's`, () => {
    for (const [functionId, served] of areaB) {
      const timeout = functionResource(functionId).Timeout
      expect(timeout, functionId).toBeLessThanOrEqual(BOUND_SECONDS)
      expect(timeout, functionId).toBe(served[0]!.timeoutSeconds)
    }
  })

  it('retries a busy account for less than the timeout, so the function answers 96 before Lambda cuts it off', () => {
    for (const [functionId] of areaB)
      expect(AREA_B_RETRY_BUDGET_MS, functionId).toBeLessThan(
        functionResource(functionId).Timeout * 1000 - 1000,
      )
  })

  it("waits longer at the gateway than each function's timeout", () => {
    const resources = prod.apiTemplate.toJSON().Resources as Record<string, any>
    for (const [functionId] of areaB) {
      const fnId = logicalIdOf(prod.stage.functions.get(functionId)!.function)
      const integrations = Object.values(resources).filter(
        (r) =>
          r.Type === 'AWS::ApiGatewayV2::Integration' &&
          JSON.stringify(r.Properties.IntegrationUri).includes(`"${fnId}"`),
      )
      expect(integrations.length, functionId).toBeGreaterThan(0)
      for (const integration of integrations)
        expect(integration.Properties.TimeoutInMillis, functionId).toBeGreaterThan(
          functionResource(functionId).Timeout * 1000,
        )
    }
  })
})
