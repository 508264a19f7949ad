import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that took a minute or more in the last measured run, longest first. vitest starts the
 * files it has durations for longest first, but a clean clone (CI, a newcomer) has none, and then it
 * starts the largest files first: these are small, so they would start last and end the run alone
 * (events/faults.test.ts alone waits about three minutes on a DynamoDB outage and the webhook host
 * leases it strands). Started first, their waiting overlaps the rest of the suite.
 */
const LONGEST = [
  'test/http/receipts/fault-day.test.ts',
  'test/http/events/faults.test.ts',
  'test/http/ledger/fault.test.ts',
  'test/http/platform/readme.test.ts',
  'test/http/invoice/property.test.ts',
  'test/http/platform/route-fuzz.test.ts',
  'test/http/merchant-history/blocks.test.ts',
  'test/http/registry/credentials-cli.test.ts',
  'test/http/merchant-history/stripes.test.ts',
]

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
      return at < 0 ? LONGEST.length : at
    }
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
