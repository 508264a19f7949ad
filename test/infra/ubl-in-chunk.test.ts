import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ublOf } from '#lib/documents/ubl.ts'
import { bundleFunction } from '../../infra/constructs/bundle-function.ts'
import {
  EN16931_CHUNK,
  needsEn16931Chunk,
  needsUblInChunk,
  PROJECT_ROOT,
  UBL_IN_CHUNK,
} from '../../infra/constructs/api-function.ts'
import { routes } from '#lib/service/routes.ts'
import { buildInvoice } from '../fixtures/invoices/build.ts'

/**
 * UBL in's XML path is a chunk beside the bundles of the functions that take XML (CONTRACT 22,
 * UBL_IN_CHUNK): built by the construct's command, out of the bundle, and loaded by the bundle's
 * loader from beside it.
 */

const dir = mkdtempSync(join(tmpdir(), 'ubl-in-chunk-'))

/**
 * Runs a chunk's loader shim as it is bundled, copied into `folder` beside the chunk, with `body`: a
 * module script that has the loader's exports as `loader` and the file `input` (written to `folder`)
 * as `input`. Returns the process, whose stdout is what the script wrote.
 */
function runLoader(folder: string, shim: string, input: string, body: string) {
  writeFileSync(join(folder, 'input'), input)
  writeFileSync(
    join(folder, 'loader.mjs'),
    readFileSync(join(PROJECT_ROOT, 'infra/constructs/shims', shim), 'utf8'),
  )
  const script = `const loader = await import(${JSON.stringify(join(folder, 'loader.mjs'))});
    const input = (await import('node:fs')).readFileSync(${JSON.stringify(join(folder, 'input'))}, 'utf8');
    ${body}`
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
}
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the UBL in chunk of the invoice functions', () => {
  it('is shipped with exactly the functions whose routes take XML', () => {
    const taking = new Set(routes.filter((r) => needsUblInChunk([r])).map((r) => r.functionId))
    expect([...taking].sort()).toEqual(['app-invoice-sign', 'app-invoice-validate', 'si-validate'])
  })

  it("is built as the construct builds it and read by the bundle's loader, which does not hold it", async () => {
    await bundleFunction(
      { handler: 'functions/invoice/si-validate.ts', chunks: [UBL_IN_CHUNK.file], files: [] },
      dir,
    )
    const bundle = join(dir, 'index.mjs')
    const text = readFileSync(bundle, 'utf8')
    // The schema model and saxes are in the chunk only.
    expect(text).not.toContain('InvoiceLineType')
    expect(text).toContain(UBL_IN_CHUNK.file)
    expect(statSync(join(dir, UBL_IN_CHUNK.file)).size).toBeGreaterThan(50_000)
    // The loader as bundled, run from the bundle's directory, finds the chunk and reads an invoice.
    const run = runLoader(
      dir,
      'ubl-in-loader.mjs',
      ublOf(buildInvoice()),
      'const read = await loader.readUbl(input); process.stdout.write(String(read.ok && read.invoice.irn))',
    )
    expect(run.stdout, run.stderr).toMatch(/^INV/)
  })
})

describe('the EN 16931 chunk of the validate functions', () => {
  it('is shipped with exactly the functions whose routes report EN 16931 findings', () => {
    const reporting = new Set(routes.filter((r) => needsEn16931Chunk([r])).map((r) => r.functionId))
    expect([...reporting].sort()).toEqual(['app-invoice-validate', 'si-validate'])
    // Every validate path of both versions and the authority's, and no other route.
    expect(
      routes
        .filter((r) => r.en16931)
        .map((r) => r.path)
        .sort(),
    ).toEqual([
      '/api/v1/app/invoice/validate',
      '/api/v1/invoice/validate',
      '/api/v1/si/validate',
      '/api/v2/app/invoice/validate',
      '/api/v2/si/validate',
    ])
  })

  it.each(['functions/invoice/si-validate.ts', 'functions/invoice/app-invoice-validate.ts'])(
    "is built as the construct builds it and read by %s's loader, which does not hold it",
    async (handler) => {
      const out = mkdtempSync(join(dir, 'en16931-'))
      await bundleFunction({ handler, chunks: [EN16931_CHUNK.file], files: [] }, out)
      const bundle = join(out, 'index.mjs')
      const text = readFileSync(bundle, 'utf8')
      // The rules' texts are in the chunk only.
      expect(text).not.toContain('Invoice total amount with VAT (BT-112)')
      expect(text).toContain(EN16931_CHUNK.file)
      expect(readFileSync(join(out, EN16931_CHUNK.file), 'utf8')).toContain(
        'Invoice total amount with VAT (BT-112)',
      )
      // The loader as bundled, run from the bundle's directory, finds the chunk and judges an invoice.
      const run = runLoader(
        out,
        'en16931-loader.mjs',
        JSON.stringify(buildInvoice()),
        "const findings = await loader.judgeEn16931(JSON.parse(input)); process.stdout.write(findings.map((f) => f.rule).join(','))",
      )
      expect(run.stdout, run.stderr).toMatch(/^BR-01,/)
    },
  )
})
