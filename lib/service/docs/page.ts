import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * GET /api/docs: the API reference, rendered in the browser by Redoc's standalone bundle from the
 * OpenAPI document embedded in the page. The bundle comes from the `redoc` npm package and is served
 * inline by the API itself: nothing is fetched from a CDN, not even fonts (the page names system
 * fonts). In Lambda the file sits beside the function's bundle (the construct copies it there, see
 * the route table's `files`); locally it is read from node_modules.
 */
const REDOC_MODULE = 'redoc/bundles/redoc.standalone.js'

let renderer: string | undefined
function redocScript(): string {
  if (renderer === undefined) {
    const beside = fileURLToPath(new URL('./redoc.standalone.js', import.meta.url))
    const file = existsSync(beside) ? beside : createRequire(import.meta.url).resolve(REDOC_MODULE)
    // A script element ends at the first "</script": the bundle must not contain one unescaped.
    renderer = readFileSync(file, 'utf8').replaceAll('</script', '<\\/script')
  }
  return renderer
}

/** JSON inside a script element: `<` escaped so no string in the document can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c')

const OPTIONS = {
  hideDownloadButton: false,
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  theme: {
    typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } },
  },
}

export function docsPage(document: { info?: { title?: string } }): string {
  const title = document.info?.title ?? 'API reference'
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<&>"]/g, '')}</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script>${redocScript()}</script>
<script>
Redoc.init(${scriptJson(document)}, ${scriptJson(OPTIONS)}, document.getElementById('redoc'))
</script>
</body>
</html>
`
}

/** Scripts inline, images as data URLs, and nothing from anywhere else. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; style-src 'unsafe-inline'; img-src data: blob:; worker-src blob:; connect-src 'self'; font-src data:"
