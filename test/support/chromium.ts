import { execFileSync } from 'node:child_process'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib'

/**
 * The headless Chromium the browser tests drive: the one `npm ci` brings, inside the
 * `@sparticuz/chromium` tarball (a brotli-compressed chrome-headless-shell for x64 Linux, with the
 * NSS/NSPR/expat libraries it links against and a font), so a machine with only Node and Java runs
 * them offline. Nothing is downloaded: the archives are unpacked once into node_modules/.cache.
 * CHROMIUM_PATH names another browser instead (e.g. Debian's /usr/bin/chromium).
 */
export interface Browser {
  executablePath: string
  /** The environment the browser needs: where its own libraries and fonts are. */
  env: Record<string, string>
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const PACKAGE = '@sparticuz/chromium'

export async function testBrowser(): Promise<Browser> {
  const chosen = process.env.CHROMIUM_PATH
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH=${chosen}: no such file`)
    return { executablePath: chosen, env: {} }
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${PACKAGE} ships Chromium for x64 Linux only (this is ${process.platform}/${process.arch}): ` +
        'set CHROMIUM_PATH to a Chromium or Chrome of this machine',
    )
  }
  const bin = join(ROOT, 'node_modules', PACKAGE, 'bin')
  if (!existsSync(join(bin, 'chromium.br'))) {
    throw new Error(`${bin}/chromium.br not found: run npm ci (${PACKAGE} is a devDependency)`)
  }
  const { version } = JSON.parse(readFileSync(join(bin, '..', 'package.json'), 'utf8')) as { version: string }
  const dir = join(ROOT, 'node_modules', '.cache', `chromium-${version}`)
  const executablePath = join(dir, 'chromium')
  mkdirSync(dir, { recursive: true })
  // Test files run in parallel processes: each unpacks under a name of its own, then renames, so no
  // process ever starts a half-written browser.
  if (!existsSync(executablePath)) {
    const partial = `${executablePath}.${process.pid}`
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    )
    renameSync(partial, executablePath)
  }
  // al2023.tar.br holds lib/ (libnss3, libnspr4, libexpat: Debian has them only with a browser
  // installed); fonts.tar.br holds fonts/ (Open Sans), found through a fonts.conf naming this folder.
  for (const [archive, entry] of [
    ['al2023.tar.br', 'lib'],
    ['fonts.tar.br', 'fonts'],
  ] as const) {
    if (existsSync(join(dir, entry))) continue
    const partial = join(dir, `.${entry}.${process.pid}`)
    mkdirSync(partial, { recursive: true })
    execFileSync('tar', ['-x', '-C', partial, entry], {
      input: brotliDecompressSync(readFileSync(join(bin, archive))),
    })
    try {
      renameSync(join(partial, entry), join(dir, entry))
    } catch (error) {
      // Another process renamed its copy first: the same files.
      if (!existsSync(join(dir, entry))) throw error
    }
    rmSync(partial, { recursive: true, force: true })
  }
  const conf = join(dir, 'fonts.conf')
  if (!existsSync(conf)) {
    const fontsConf = `<?xml version="1.0"?>\n<fontconfig><dir>${dir}/fonts</dir><cachedir>${dir}/fonts-cache</cachedir></fontconfig>\n`
    writeFileSync(`${conf}.${process.pid}`, fontsConf)
    renameSync(`${conf}.${process.pid}`, conf)
  }
  return {
    executablePath,
    env: {
      LD_LIBRARY_PATH: [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: dir,
    },
  }
}
