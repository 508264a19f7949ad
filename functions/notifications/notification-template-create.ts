import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { templateCreate } from '#lib/service/endpoints/notifications.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { createTemplate } from '#lib/notifications/templates.ts'

/** POST /notification/template: one template per (productCode, messageType); 201 with the new item. */
export const handler = apiHandler(templateCreate, adminBearer, async ({ body, caller }) => {
  const template = await createTemplate(body, caller.adminKeyId)
  return {
    status: 201,
    message: `Template ${template.templateID} created for product ${template.productCode}, messageType ${template.messageType}`,
    data: template,
  }
})
