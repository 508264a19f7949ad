import { readdirSync, readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { Stack } from 'aws-cdk-lib'
import { CURRENTLY_RECOMMENDED_FLAGS } from 'aws-cdk-lib/cx-api'
import { describe, expect, it } from 'vitest'
import { CDK_JSON_CONTEXT, cdkApp } from '../support/cdk-app.ts'

/**
 * The infra tests check what `cdk synth` deploys: an App that CDK's CLI makes from cdk.json, whose
 * context carries the feature flags (docs/operations.md, "CDK feature flags"). An App made without
 * them takes CDK's old default for every flag, and its templates are not the deployed ones.
 */

const INFRA_TESTS = new URL('./', import.meta.url)

describe("the infra tests build their stacks with cdk.json's context", () => {
  it('makes every App through test/support/cdk-app.ts, none directly', () => {
    const direct = readdirSync(INFRA_TESTS)
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /\bnew App\(/.test(readFileSync(new URL(file, INFRA_TESTS), 'utf8')))
    expect(direct).toEqual([])
  })

  it("gives a stack cdk.json's flags, the test's own context on top", () => {
    const app = cdkApp({ context: { stage: 'prod' } })
    const stack = new Stack(app, 'Flags')
    expect(stack.node.tryGetContext('@aws-cdk/aws-iam:minimizePolicies')).toBe(true)
    expect(stack.node.tryGetContext('stage')).toBe('prod')
  })
})

/**
 * The flags kept at another value than CDK recommends, and why. `weak` references
 * (Fn::GetStackOutput) would let the data stack be deleted under the stacks that use its table and
 * key; `strong` (exports) refuses that, and is what every stack has been built with.
 */
const KEPT: Readonly<Record<string, unknown>> = { '@aws-cdk/core:defaultCrossStackReferences': 'strong' }

describe('cdk.json sets the feature flags CDK recommends (cdk synth warns of none unset)', () => {
  it('sets each recommended flag to its recommended value, or keeps it on purpose', () => {
    const unset = Object.entries(CURRENTLY_RECOMMENDED_FLAGS)
      .filter(([flag, value]) => !isDeepStrictEqual(CDK_JSON_CONTEXT[flag], KEPT[flag] ?? value))
      .map(([flag]) => flag)
    expect(unset).toEqual([])
  })
})
