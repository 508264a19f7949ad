import { describe, expect, it } from 'vitest'
import {
  floorCost,
  PRICES,
  perMillion,
  readUnits,
  requestCost,
  transactionUnits,
  writeUnits,
} from '../../../bench/cost/pricing.ts'

/** The arithmetic of bench/cost.ts: units, GB-seconds and list prices into dollars per million requests. */
describe('request cost pricing', () => {
  it('prices one request by service at the us-east-1 list prices', () => {
    const cost = requestCost({
      readUnits: 2,
      writeUnits: 4,
      lambdaMs: 49.2,
      memoryMb: 1024,
      requestBytes: 6_000,
      kmsRequests: 0,
      logBytes: 1_073_741.824,
    })
    // 2 x $0.125/M + 4 x $0.625/M
    expect(perMillion(cost.dynamodb)).toBeCloseTo(2.75, 10)
    // 1 GB x 0.050 s (rounded up to the ms) x $0.0000133334 + $0.20/M
    expect(perMillion(cost.lambda)).toBeCloseTo(0.05 * 13.3334 + 0.2, 8)
    expect(perMillion(cost.apiGateway)).toBeCloseTo(1, 10)
    // a thousandth of a GB at $0.50 per GB
    expect(perMillion(cost.logs)).toBeCloseTo(500, 8)
    expect(cost.total).toBeCloseTo(cost.dynamodb + cost.lambda + cost.apiGateway + cost.kms + cost.logs, 15)
  })

  it('meters an HTTP API request per 512 KB and a KMS request at $0.03 per 10,000', () => {
    const big = requestCost({
      readUnits: 0,
      writeUnits: 0,
      lambdaMs: 0,
      memoryMb: 1024,
      requestBytes: 600 * 1024,
      kmsRequests: 2,
      logBytes: 0,
    })
    expect(perMillion(big.apiGateway)).toBeCloseTo(2, 10)
    expect(perMillion(big.kms)).toBeCloseTo(6, 10)
    expect(perMillion(big.lambda)).toBeCloseTo(0.2, 10)
  })

  it("follows DynamoDB's unit rules when a call reports none", () => {
    expect(writeUnits(100)).toBe(1)
    expect(writeUnits(3 * 1024 + 1)).toBe(4)
    expect(writeUnits(1500, { transactional: true, indexes: 1 })).toBe(8)
    expect(readUnits(100)).toBe(1)
    expect(readUnits(8 * 1024, { consistent: false })).toBe(1)
    expect(readUnits(9 * 1024, { transactional: true })).toBe(6)
  })

  it('prices the floor as its units, one API request and one invocation', () => {
    expect(perMillion(floorCost({ readUnits: 1, writeUnits: 1 }))).toBeCloseTo(0.125 + 0.625 + 1 + 0.2, 10)
    expect(PRICES.region).toBe('us-east-1')
  })

  it('prices a transaction item by item: each rounded up to its KB and doubled, index copies once each', () => {
    // Four 300-byte items: DynamoDB Local reports 2 units (their 1.2 KB total, doubled); DynamoDB 8.
    const small = { bytes: 300, indexes: [] }
    expect(transactionUnits([small, small, small, small])).toEqual({ table: 8, indexes: {} })
    // A 5,000-byte invoice on no index and a 300-byte list item on two: 5 x 2 + 1 x 2; 1 per index.
    expect(
      transactionUnits([
        { bytes: 5_000, indexes: [] },
        { bytes: 300, indexes: ['gsi1', 'gsi2'] },
        { bytes: 2_100, indexes: ['gsi1'] },
      ]),
    ).toEqual({ table: 10 + 2 + 6, indexes: { gsi1: 1 + 3, gsi2: 1 } })
  })
})
