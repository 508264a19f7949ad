import { readFile } from 'node:fs/promises'
import { writeList } from '#lib/reference/store.ts'
import { REFERENCE_LISTS, type ReferenceListName } from '#lib/reference/lists.ts'
import { loadBundledList } from '../local/seed.ts'
import type { Command } from './command.ts'
import { optional } from './require.ts'

const help = `reference load: load reference lists into the table.

  --all                 load every bundled list (data/reference), as a fresh deployment needs
  --list NAME           one of: ${REFERENCE_LISTS.join(', ')}
  --file PATH           a JSON array of rows for --list (the authority's "data" array); without it,
                        the bundled copy of the list is loaded
  --url URL             fetch the list from the authority's /resources endpoint instead (needs
                        --api-key and --api-secret, sent as x-api-key and x-api-secret)
  --version V           version label for a --file/--url load (default: today's date)
  --complete            mark the list complete (for the LGAs: codes are then checked against it)

A load writes a new revision and switches to it in one step: readers never see a mixture.

Examples (the first two against the running npm start, the last against a table in AWS):
  npm run cli -- reference load --list states
  npm run cli -- reference load --list lgas --file lgas-full.json --complete
  npm run cli -- reference load --all --table einvoicing-prod --region eu-west-1`

async function fetchRows(
  url: string,
  apiKey: string | undefined,
  apiSecret: string | undefined,
): Promise<unknown[]> {
  const res = await fetch(url, {
    headers: {
      accept: 'application/json',
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...(apiSecret ? { 'x-api-secret': apiSecret } : {}),
    },
    signal: AbortSignal.timeout(30_000),
  })
  if (!res.ok) throw new Error(`${url} answered ${res.status}`)
  const body = (await res.json()) as { data?: unknown }
  if (!Array.isArray(body.data)) throw new Error(`${url} did not return a "data" array`)
  return body.data
}

export const commands: Command[] = [
  {
    name: 'reference load',
    summary: 'load reference lists (bundled, from a file, or from the authority)',
    help,
    options: {
      all: { type: 'boolean' },
      list: { type: 'string' },
      file: { type: 'string' },
      url: { type: 'string' },
      'api-key': { type: 'string' },
      'api-secret': { type: 'string' },
      version: { type: 'string' },
      complete: { type: 'boolean' },
    },
    async run(v) {
      if (v.all) {
        for (const name of REFERENCE_LISTS) {
          const head = await loadBundledList(name)
          console.log(
            `${name}: ${head.records} rows, version ${head.version}${head.complete ? '' : ' (partial)'}`,
          )
        }
        return
      }
      const name = optional(v, 'list') as ReferenceListName | undefined
      if (!name || !REFERENCE_LISTS.includes(name)) {
        console.error(`--list must be one of ${REFERENCE_LISTS.join(', ')} (or use --all).\n\n${help}`)
        process.exit(2)
      }
      const file = optional(v, 'file')
      const url = optional(v, 'url')
      if (!file && !url) {
        const head = await loadBundledList(name)
        console.log(`${name}: ${head.records} rows from the bundled copy`)
        return
      }
      const rows = file
        ? (JSON.parse(await readFile(file, 'utf8')) as unknown[])
        : await fetchRows(url!, optional(v, 'api-key'), optional(v, 'api-secret'))
      if (!Array.isArray(rows) || rows.length === 0)
        throw new Error('The list must be a non-empty JSON array of rows')
      const today = new Date().toISOString().slice(0, 10)
      const head = await writeList(name, rows, {
        version: optional(v, 'version') ?? today,
        sourceDate: today,
        complete: Boolean(v.complete),
        source: file ? `file ${file}` : `fetched from ${url}`,
      })
      console.log(`${name}: ${head.records} rows, version ${head.version}, etag ${head.etag}`)
    },
  },
]
