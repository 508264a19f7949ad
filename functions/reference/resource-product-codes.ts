import { referenceListHandler } from './reference-handler.ts'

export const handler = referenceListHandler('product-codes')
