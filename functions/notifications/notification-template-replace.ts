import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { templateReplace } from '#lib/service/endpoints/notifications.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { replaceTemplate } from '#lib/notifications/templates.ts'

/** PUT /notification/template/{templateId}: whole replacement; version + 1; optional `version` check (409). */
export const handler = apiHandler(templateReplace, adminBearer, async ({ body, params, caller }) => {
  const template = await replaceTemplate(params.templateId, body, caller.adminKeyId)
  return {
    message: `Template ${template.templateID} replaced: now version ${template.version}`,
    data: template,
  }
})
