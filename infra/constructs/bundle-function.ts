import { copyFileSync, mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { projectFile } from '#lib/platform/http/route.ts'
import {
  type Chunk,
  chunkOptions,
  EN16931_CHUNK,
  esbuildOptionsFor,
  PROJECT_ROOT,
  UBL_IN_CHUNK,
} from './api-function.ts'

/** What a function's asset holds (houseFunction): its handler module, the chunks and package files beside it. */
export interface FunctionAsset {
  /** The module exporting `handler`, relative to the project root. */
  handler: string
  /** The chunks' files (UBL_IN_CHUNK.file, EN16931_CHUNK.file). */
  chunks: readonly Chunk['file'][]
  /** Files of npm packages the function reads at run time (the route table's `files`). */
  files: readonly string[]
}

const CHUNKS: readonly Chunk[] = [UBL_IN_CHUNK, EN16931_CHUNK]

/**
 * Builds a function's asset into `outputDir` with esbuild's API and esbuildOptionsFor(), the very
 * settings the benchmarks and the bundle tests build with (plugins included, which esbuild's command
 * line cannot run): index.mjs and its map, each chunk beside it, each package file copied.
 */
export async function bundleFunction(asset: FunctionAsset, outputDir: string): Promise<void> {
  mkdirSync(outputDir, { recursive: true })
  await build({ ...esbuildOptionsFor(asset.handler, join(outputDir, 'index.mjs')), metafile: false })
  for (const file of asset.chunks) {
    const chunk = CHUNKS.find((c) => c.file === file)
    if (!chunk) throw new Error(`no chunk ${file}`)
    await build({ ...chunkOptions(chunk, join(outputDir, chunk.file)), sourcemap: false, metafile: false })
  }
  for (const file of asset.files) {
    const from = join(PROJECT_ROOT, projectFile(file))
    copyFileSync(from, join(outputDir, basename(from)))
  }
}

// The construct's local bundling runs `node --import tsx <this file> <asset JSON> <dir>` (functionCode).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [asset, outputDir] = process.argv.slice(2)
  await bundleFunction(JSON.parse(asset!) as FunctionAsset, outputDir!)
}
