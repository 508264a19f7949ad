import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { referenceLists } from '#lib/service/endpoints/reference.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { DependencyDown } from '#lib/platform/errors.ts'
import type { ReferenceListName } from '#lib/reference/lists.ts'
import { readHead, readList } from '#lib/reference/store.ts'

/**
 * The handler of one reference list endpoint: the list in the Envelope, with ETag and Last-Modified
 * so clients can cache it, and 304 for a matching If-None-Match (no rows read at all then).
 */
export function referenceListHandler(name: ReferenceListName) {
  return apiHandler(referenceLists[name], apiSignature, async ({ headers }) => {
    const head = await readHead(name)
    if (!head) {
      throw new DependencyDown(
        `The ${name} list has not been loaded into this deployment: run "npm run cli -- reference load --all"`,
      )
    }
    const caching = {
      etag: head.etag,
      'last-modified': head.lastModified,
      'cache-control': 'private, max-age=300',
    }
    if (headers['if-none-match']?.split(',').some((tag) => tag.trim() === head.etag)) {
      return { status: 304, headers: caching }
    }
    const list = await readList(name, head)
    return {
      message: `${list!.records} ${name} (version ${head.version}${head.complete ? '' : ', partial list'})`,
      data: list!.rows,
      headers: caching,
    }
  })
}
