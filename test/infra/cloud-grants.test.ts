import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cdkApp } from '../support/cdk-app.ts'
import type { Access } from '#lib/platform/iam/access.ts'
import { accessOfFunctions } from '#lib/service/function-access.ts'
import {
  CloudAssembly,
  grantsFromCloudAssembly,
  grantsFromTemplates,
} from '../../scripts/local/cloud-grants.ts'
import { loadStageSettings } from '../../infra/settings.ts'
import { buildStage } from '../../infra/stage.ts'

/**
 * The bundles run (`npm start -- --bundles`, the CI's API_BUNDLES=cdk.out pass) holds each function
 * to the grants its synthesized template gives its role. Read back, they must be the very Access the
 * sources run enforces and the policies were generated from: a synthesized stage (bundling skipped),
 * its templates read as scripts/local/cloud-grants.ts reads cdk.out.
 */

const outdir = mkdtempSync(join(tmpdir(), 'cloud-grants-'))
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

/** Order-free form: the same grants in any order compare equal. */
function canonical(access: Access | undefined) {
  const sorted = (list?: readonly string[]) => (list ? [...list].sort() : undefined)
  return {
    table: (access?.table ?? [])
      .map((g) =>
        JSON.stringify({ actions: sorted(g.actions), keys: sorted(g.keys), indexes: sorted(g.indexes) }),
      )
      .sort(),
    decrypt: sorted(access?.decrypt) ?? [],
    encrypt: sorted(access?.encrypt) ?? [],
    secrets: sorted(access?.secrets) ?? [],
    queues: sorted(access?.queues) ?? [],
    email: Boolean(access?.email),
  }
}

const expected = accessOfFunctions()

beforeAll(() => {
  const app = cdkApp({ context: { 'aws:cdk:bundling-stacks': [] }, outdir })
  buildStage(app, {
    stage: 'dev',
    prefix: 'Grants-dev',
    settings: {
      ...loadStageSettings('dev'),
      ses: { fromAddress: 'notices@example.com', identity: 'example.com' },
    },
  })
  app.synth()
}, 120_000)

describe('grants read back from a cloud assembly', () => {
  it('are, for every function the local runner invokes, the Access its policy was generated from', () => {
    const read = grantsFromCloudAssembly(outdir, expected.keys())
    expect(read.size).toBe(expected.size)
    for (const [functionId, access] of expected) {
      // The outbox sender's SES grant exists only where the stage has an identity, as here.
      expect(canonical(read.get(functionId)), functionId).toEqual(canonical(access))
    }
    // Spot checks of what the comparison covers: an import from the data stack, a LeadingKeys
    // condition, an index by name, a data key record, a secret and a queue found by environment.
    expect(read.get('app-invoice-batch-submit')?.table).toContainEqual({
      actions: ['BatchWriteItem'],
      keys: ['BATCH#'],
    })
    expect(read.get('si-get-invoice')?.decrypt).toEqual(expect.arrayContaining(['api-client', 'invoice']))
    expect(read.get('app-invoice-sign')?.secrets).toEqual(['signing-key'])
    expect(read.get('webhook-delivery-redeliver')?.queues).toEqual([
      'webhook-deliveries',
      'webhook-test-deliveries',
    ])
    expect(read.get('outbox-sender')?.email).toBe(true)
  })

  it('refuses a statement it cannot translate, rather than guessing allowed or refused', () => {
    const assembly = CloudAssembly.read(outdir)
    const policy = assembly.templates
      .flatMap((t) => Object.values(t.Resources))
      .find((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r).includes('dynamodb:BatchWriteItem'))!
    const statements = policy.Properties.PolicyDocument.Statement as { Action: unknown }[]
    statements.push({ ...statements[0]!, Action: 'dynamodb:PartiQLSelect' })
    expect(() => grantsFromTemplates(assembly, ['app-invoice-batch-submit'])).toThrow(
      /app-invoice-batch-submit: cannot read this statement as an Access \(table actions outside the model: PartiQLSelect\)/,
    )
  })

  it('fails for a function the assembly does not hold', () => {
    expect(() => grantsFromCloudAssembly(outdir, ['no-such-function'])).toThrow(
      /no function no-such-function/,
    )
  })
})
