import { adminBearer } from '#lib/auth/admin-bearer.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { adminOf } from '#lib/notifications/admin.ts'
import { TemplateRequest } from '#lib/notifications/schemas.ts'
import { createTemplate } from '#lib/notifications/templates.ts'

/** POST /notification/template: one template per (productCode, messageType); 201 with the new item. */
export const handler = apiHandler({ auth: adminBearer, body: TemplateRequest }, async ({ body, caller }) => {
  const template = await createTemplate(body, adminOf(caller))
  return {
    status: 201,
    message: `Template ${template.templateID} created for product ${template.productCode}, messageType ${template.messageType}`,
    data: template,
  }
})
