import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderErrorsDoc } from '#lib/service/error-catalogue.ts'
import { renderClientTypes, renderOpenApiDocument } from '#lib/service/openapi/generate.ts'

/**
 * `npm run openapi`: writes openapi.json (from the route table and the endpoint declarations),
 * client/api-types.ts (openapi-typescript's types of that document, which type the project's
 * client) and docs/errors.md (the error catalogue, lib/service/error-catalogue.ts). Commit all three.
 * `npm run openapi:check` (in .ci/run) and tests fail when any is stale.
 */
const outputs = [
  {
    file: fileURLToPath(new URL('../openapi.json', import.meta.url)),
    render: async () => renderOpenApiDocument(),
  },
  {
    file: fileURLToPath(new URL('../client/api-types.ts', import.meta.url)),
    render: () => renderClientTypes(JSON.parse(renderOpenApiDocument())),
  },
  {
    file: fileURLToPath(new URL('../docs/errors.md', import.meta.url)),
    render: () => renderErrorsDoc(),
  },
]

const check = process.argv.includes('--check')
let stale = 0
for (const { file, render } of outputs) {
  const text = await render()
  if (!check) {
    writeFileSync(file, text)
    console.log(`wrote ${file}`)
  } else if (readFileSync(file, 'utf8') !== text) {
    console.error(`${file} is out of date: run \`npm run openapi\` and commit it`)
    stale++
  }
}
if (check && stale === 0) console.log('openapi.json, client/api-types.ts and docs/errors.md are current')
process.exitCode = stale ? 1 : 0
