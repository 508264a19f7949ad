import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { DOCS_CSP, docsPage } from '#lib/service/docs/page.ts'
import { docs } from '#lib/service/endpoints/meta.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { originOf, servedDocument } from '#lib/service/openapi/served.ts'
import { publishedDocument } from '#lib/service/docs/published-document.ts'

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
