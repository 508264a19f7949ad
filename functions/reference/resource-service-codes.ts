import { referenceListHandler } from './reference-handler.ts'

export const handler = referenceListHandler('service-codes')
