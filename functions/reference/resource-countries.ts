import { referenceListHandler } from '#lib/reference/handler.ts'

export const handler = referenceListHandler('countries')
