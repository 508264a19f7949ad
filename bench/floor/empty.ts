/** Cold-start reference: a handler that imports nothing (the cost of any ESM bundle with the banner). */
export const handler = async () => ({ statusCode: 204 })
