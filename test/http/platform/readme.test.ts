import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../../scripts/local/dynamodb-local.ts'
import type { LocalServerState } from '../../../scripts/local/state.ts'
import { type NpmStart, npmStart } from '../../support/npm-start.ts'

/**
 * The documentation's commands, run as a new user runs them: `npm start` (on a free port, on this
 * run's DynamoDB Local, with its own table and its own server file so that a developer's running
 * server is untouched), then every ```sh block of README.md and of each docs/*.md, in the reading
 * order of DOCS, pasted into bash in order, with only the URL's port changed. As in one terminal, a
 * block starts with the shell variables and the directory the blocks before it left (a block that
 * left the shell elsewhere breaks the next; one may capture an id for the next to use). A block is left out
 * only when the line before it says `<!-- readme-test: skip (why) -->` and the first test below
 * names it. Each block must exit 0, no HTTP reply may be 4xx/5xx (curl runs with --fail-with-body),
 * no reply may report FAILED, and each `# {...}` line under a command (the output the document
 * promises, `...` standing for what varies) must match what was printed.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * Every document with commands, in the order a reader follows the README's map: blocks build on the
 * ones before them (the invoices' IRNs count from the first one signed; the audit trail in
 * operations.md reads the invoices of invoices.md). Every docs/*.md must be listed (checked below).
 */
const DOCS = [
  'README.md',
  'docs/authentication.md',
  'docs/invoices.md',
  'docs/authority-api.md',
  'docs/payments.md',
  'docs/history-and-finance.md',
  'docs/finance.md',
  'docs/events.md',
  'docs/sandbox.md',
  'docs/operations.md',
  // After the documents whose promised outputs count the business's invoices: its receipts are invoices too.
  'docs/receipts.md',
  'docs/capacity.md',
  'docs/hostile-input.md',
  'docs/errors.md',
  'docs/configuration.md',
  'docs/development.md',
  'docs/adding-an-endpoint.md',
  'docs/architecture.md',
  'docs/interface.md',
  'docs/CONTRACT.md',
]

interface Block {
  file: string
  line: number
  code: string
  skip?: string
}

function codeBlocks(file: string, language: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== `\`\`\`${language}`) continue
    const end = lines.indexOf('```', i + 1)
    const marker = /^<!-- readme-test: skip \((.+)\) -->$/.exec(lines[i - 1] ?? '')
    blocks.push({ file, line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: marker?.[1] })
    i = end
  }
  return blocks
}

/** The fragments of each promised output line (`# {...}`), split where the README writes `...`. */
function promisedFragments(code: string): string[] {
  return code
    .split('\n')
    .filter((line) => /^# [{[]/.test(line))
    .flatMap((line) => line.slice(2).split('...'))
    .map((fragment) => fragment.replace(/^[{[,]+|[}\],]+$/g, ''))
    .filter((fragment) => fragment.length > 2)
}

const blocks = DOCS.flatMap((file) => codeBlocks(file, 'sh'))
const snippets = DOCS.flatMap((file) => codeBlocks(file, 'ts'))

/** A 4xx or 5xx reply fails the block (with its body shown), as a person reading it would judge it. */
const CURL_FAILS_ON_ERROR = 'curl() { command curl --fail-with-body "$@"; }'

/**
 * `npm run [--silent] cli -- ARGS` is `tsx scripts/cli.ts ARGS` (package.json, checked below) less
 * npm's own start-up, which would double the time of the two dozen CLI calls; any other npm use goes
 * to npm itself.
 */
const CLI_SCRIPT = 'tsx scripts/cli.ts'
const NPM_RUN_CLI = `npm() {
  if [ "$1" = run ] && { [ "$2" = cli ] || { [ "$2" = --silent ] && [ "$3" = cli ]; }; }; then
    [ "$2" = --silent ] && shift; shift 2; [ "$1" = -- ] && shift
    node_modules/.bin/${CLI_SCRIPT} "$@"
  else
    command npm "$@"
  fi
}`

/**
 * One terminal across blocks: each block starts by reading the state file the one before it wrote
 * (its own variables, as `declare -p`, and its directory) and ends by writing its own. The shell's
 * own variables (those of a fresh bash) are left out.
 */
const SAVE_SHELL = `{ for name in $(compgen -v); do
  grep -qxF "$name" "$SHELL_BASELINE" || declare -p "$name" 2>/dev/null || true
done; printf 'cd %q\\n' "$PWD"; } > "$SHELL_STATE.next" && mv "$SHELL_STATE.next" "$SHELL_STATE"`
const RESTORE_SHELL = '[ -f "$SHELL_STATE" ] && . "$SHELL_STATE"'

let server: NpmStart | undefined
let port: number
let dir: string
const serverFile = () => join(dir, 'server.json')

/** The environment of a new terminal: nothing names a table, so the CLI must find the server. */
function terminalEnv(): NodeJS.ProcessEnv {
  // TILL_DIR: docs/receipts.md's till keeps its key and receipts in this run's folder, not a shared one.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOCAL_SERVER_FILE: serverFile(),
    TILL_DIR: join(dir, 'till'),
    SHELL_STATE: join(dir, 'shell-state.sh'),
    SHELL_BASELINE: join(dir, 'shell-baseline.txt'),
  }
  for (const name of ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AWS_REGION', 'STAGE', 'PORT']) delete env[name]
  return env
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'readme-test-'))
  // The variables of a fresh shell with the test's own prelude: not the documents' to carry.
  const baseline = spawnSync('bash', ['-c', `${CURL_FAILS_ON_ERROR}\n${NPM_RUN_CLI}\nname=; compgen -v`], {
    env: terminalEnv(),
    encoding: 'utf8',
  })
  writeFileSync(join(dir, 'shell-baseline.txt'), baseline.stdout)
  port = await freePort()
  server = await npmStart({
    cwd: ROOT,
    serverFile: serverFile(),
    timeoutMs: 90_000,
    env: {
      ...terminalEnv(),
      PORT: String(port),
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: `readme-${randomUUID()}`,
    },
  })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('README.md and docs/*.md, pasted as written', () => {
  it('reads every document, has shell blocks to run, and the server told the CLI where it is', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))
    expect(docs.map((name) => `docs/${name}`).sort()).toEqual(DOCS.filter((f) => f !== 'README.md').sort())
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts
    expect(scripts.cli).toBe(CLI_SCRIPT)
    // Leaving a block out is a decision made here, not only by a comment in the document.
    expect(blocks.filter((b) => b.skip).map((b) => `${b.file}: ${b.code.split('\n')[0]}`)).toEqual([
      'README.md: npm ci && npm start     # the whole API on http://127.0.0.1:3000, on DynamoDB Local',
      'docs/events.md: npm run cli -- webhooks redeliver --url http://127.0.0.1:3000 --key dev-admin-key --secret dev-admin-secret --subscription "$WH" --event evt_...',
      'docs/sandbox.md: # 1. A test subscription whose receiver answers 5xx (yours, down), to invoice.signed:',
      'docs/operations.md: npx cdk synth                                   # offline, no AWS credentials needed',
      'docs/adding-an-endpoint.md: npm run openapi',
    ])
    expect(blocks.filter((b) => !b.skip).length).toBeGreaterThanOrEqual(10)
    expect(snippets.length).toBeGreaterThanOrEqual(1)
    const state = JSON.parse(readFileSync(serverFile(), 'utf8')) as LocalServerState
    expect(state.url).toBe(`http://127.0.0.1:${port}`)
  })

  for (const block of blocks.filter((b) => !b.skip)) {
    it(`block at ${block.file} line ${block.line}: ${block.code.split('\n')[0]}`, () => {
      const code = block.code.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
      const script = `set -eo pipefail\n${CURL_FAILS_ON_ERROR}\n${NPM_RUN_CLI}\n${RESTORE_SHELL}\n${code}\n${SAVE_SHELL}\n`
      const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env: terminalEnv(), encoding: 'utf8' })
      const shown = `exit ${run.status}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`
      expect(run.status, shown).toBe(0)
      expect(run.stdout, shown).not.toMatch(/"(responseStatus|status)":"FAILED"/)
      for (const fragment of promisedFragments(code)) expect(run.stdout, shown).toContain(fragment)
    }, 60_000)
  }

  // The TypeScript snippets, as a module beside nothing else, importing the project by absolute path;
  // a `reply` they end with must not be a 4xx or 5xx.
  for (const snippet of snippets) {
    it(`TypeScript snippet at ${snippet.file} line ${snippet.line}`, () => {
      const file = join(dir, `snippet-${snippet.file.replaceAll('/', '-')}-${snippet.line}.mts`)
      const code = snippet.code
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
        .replaceAll("from './", `from '${ROOT}`)
      writeFileSync(
        file,
        `${code}\nif (typeof reply !== 'undefined' && reply.status >= 400) throw new Error(JSON.stringify(reply.body))\n`,
      )
      const run = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [file], {
        cwd: ROOT,
        env: terminalEnv(),
        encoding: 'utf8',
      })
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    }, 60_000)
  }
})
