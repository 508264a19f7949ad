import { execSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { ublOf } from '#lib/documents/ubl.ts'
import {
  chunkCommand,
  EN16931_CHUNK,
  esbuildOptionsFor,
  needsEn16931Chunk,
  needsUblInChunk,
  PROJECT_ROOT,
  UBL_IN_CHUNK,
  ublInChunkCommand,
} from '../../infra/constructs/api-function.ts'
import { routes } from '#lib/service/routes.ts'
import { buildInvoice } from '../fixtures/invoices/build.ts'

/**
 * UBL in's XML path is a chunk beside the bundles of the functions that take XML (CONTRACT 22,
 * UBL_IN_CHUNK): built by the construct's command, out of the bundle, and loaded by the bundle's
 * loader from beside it.
 */

const dir = mkdtempSync(join(tmpdir(), 'ubl-in-chunk-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the UBL in chunk of the invoice functions', () => {
  it('is shipped with exactly the functions whose routes take XML', () => {
    const taking = new Set(routes.filter((r) => needsUblInChunk([r])).map((r) => r.functionId))
    expect([...taking].sort()).toEqual(['app-invoice-sign', 'app-invoice-validate', 'si-validate'])
  })

  it("is built by the construct's command and read by the bundle's loader, which does not hold it", async () => {
    execSync(ublInChunkCommand(PROJECT_ROOT, dir), { stdio: 'pipe' })
    const bundle = join(dir, 'index.mjs')
    await build({ ...esbuildOptionsFor('functions/invoice/si-validate.ts', bundle), sourcemap: false })
    const text = readFileSync(bundle, 'utf8')
    // The schema model and saxes are in the chunk only.
    expect(text).not.toContain('InvoiceLineType')
    expect(text).toContain(UBL_IN_CHUNK.file)
    expect(statSync(join(dir, UBL_IN_CHUNK.file)).size).toBeGreaterThan(50_000)
    // The loader as bundled, run from the bundle's directory, finds the chunk and reads an invoice.
    writeFileSync(join(dir, 'invoice.xml'), ublOf(buildInvoice()))
    const loader = join(PROJECT_ROOT, 'infra/constructs/shims/ubl-in-loader.mjs')
    writeFileSync(join(dir, 'loader.mjs'), readFileSync(loader, 'utf8'))
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { readUbl } = await import(${JSON.stringify(join(dir, 'loader.mjs'))});
         const read = await readUbl((await import('node:fs')).readFileSync(${JSON.stringify(join(dir, 'invoice.xml'))}, 'utf8'));
         process.stdout.write(String(read.ok && read.invoice.irn))`,
      ],
      { encoding: 'utf8' },
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
    "is built by the construct's command and read by %s's loader, which does not hold it",
    async (handler) => {
      const out = mkdtempSync(join(dir, 'en16931-'))
      execSync(chunkCommand(EN16931_CHUNK, PROJECT_ROOT, out), { stdio: 'pipe' })
      const bundle = join(out, 'index.mjs')
      await build({ ...esbuildOptionsFor(handler, bundle), sourcemap: false })
      const text = readFileSync(bundle, 'utf8')
      // The rules' texts are in the chunk only.
      expect(text).not.toContain('Invoice total amount with VAT (BT-112)')
      expect(text).toContain(EN16931_CHUNK.file)
      expect(readFileSync(join(out, EN16931_CHUNK.file), 'utf8')).toContain(
        'Invoice total amount with VAT (BT-112)',
      )
      // The loader as bundled, run from the bundle's directory, finds the chunk and judges an invoice.
      writeFileSync(join(out, 'invoice.json'), JSON.stringify(buildInvoice()))
      const loader = join(PROJECT_ROOT, 'infra/constructs/shims/en16931-loader.mjs')
      writeFileSync(join(out, 'loader.mjs'), readFileSync(loader, 'utf8'))
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { judgeEn16931 } = await import(${JSON.stringify(join(out, 'loader.mjs'))});
         const record = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(join(out, 'invoice.json'))}, 'utf8'));
         process.stdout.write((await judgeEn16931(record)).map((f) => f.rule).join(','))`,
        ],
        { encoding: 'utf8' },
      )
      expect(run.stdout, run.stderr).toMatch(/^BR-01,/)
    },
  )
})
