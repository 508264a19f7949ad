import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderOpenApiDocument } from '#lib/openapi/document.ts'

/**
 * `npm run openapi`: writes openapi.json at the project root from the route table and the zod
 * schemas. Commit the result: a test fails whenever the committed file and the code disagree.
 */
const target = fileURLToPath(new URL('../openapi.json', import.meta.url))
writeFileSync(target, renderOpenApiDocument())
console.log(`wrote ${target}`)
