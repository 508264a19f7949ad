import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { templateList } from '#lib/service/endpoints/notifications.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { listTemplates } from '#lib/notifications/templates.ts'

/** GET /notification/template?product=<code>[&tempID=<id>]: the product's templates. */
export const handler = apiHandler(templateList, adminBearer, async ({ query }) => {
  const templates = await listTemplates(query.product, query.tempID)
  return {
    message: `${templates.length} template${templates.length === 1 ? '' : 's'} found for product ${query.product}`,
    data: templates,
  }
})
