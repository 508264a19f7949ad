import { noAuth } from '#lib/auth/authenticate.ts'
import { DOCS_CSP, docsPage } from '#lib/docs/page.ts'
import { docs } from '#lib/endpoints/meta.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { originOf, servedDocument } from '#lib/openapi/served.ts'
import { publishedDocument } from '#lib/docs/published-document.ts'

/** GET /api/docs: the API reference, rendered from the same document /api/openapi.json serves. */
export const handler = apiHandler(docs, noAuth, ({ headers, event }) => ({
  raw: {
    contentType: 'text/html; charset=utf-8',
    body: docsPage(servedDocument(publishedDocument(), originOf(headers, event.requestContext.domainName))),
  },
  headers: {
    'content-security-policy': DOCS_CSP,
    'cache-control': 'public, max-age=300',
  },
}))
