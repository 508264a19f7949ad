import { build } from 'esbuild'
import { writeFileSync, mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { floorSource, libraryImportsOf } from './floor/generate.ts'
const handler = process.argv[2] ?? 'functions/invoice/app-sign.ts'
const out = '/tmp/i26-prof/' + handler.replaceAll('/', '__')
mkdirSync(out, { recursive: true })
const r = await build({ ...esbuildOptionsFor(handler, join(out, 'fn.mjs')), sourcemap: 'linked', minify: false })
writeFileSync(join(out, 'meta.json'), JSON.stringify(r.metafile))
const ext = await build({ ...esbuildOptionsFor(handler, join(out, 'ext.mjs')), packages: 'external', minify: false, sourcemap: false, write: false })
const dir = join(PROJECT_ROOT, '.bench', 'prof'); mkdirSync(dir, { recursive: true })
const entry = join(dir, handler.replaceAll('/', '__') + '.floor.ts')
writeFileSync(entry, floorSource(libraryImportsOf(ext.outputFiles[0]!.text)))
await build({ ...esbuildOptionsFor(relative(PROJECT_ROOT, entry), join(out, 'floor.mjs')), sourcemap: 'linked', minify: false })
console.log(out)
