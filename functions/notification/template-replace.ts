import { adminBearer } from '#lib/auth/admin-bearer.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { adminOf } from '#lib/notifications/admin.ts'
import { TemplateParams, TemplateReplaceRequest } from '#lib/notifications/schemas.ts'
import { replaceTemplate } from '#lib/notifications/templates.ts'

/** PUT /notification/template/{templateId}: whole replacement; version + 1; optional `version` check (409). */
export const handler = apiHandler(
  { auth: adminBearer, body: TemplateReplaceRequest, params: TemplateParams },
  async ({ body, params, caller }) => {
    const template = await replaceTemplate(params.templateId, body, adminOf(caller))
    return {
      message: `Template ${template.templateID} replaced: now version ${template.version}`,
      data: template,
    }
  },
)
