// Stands in for lib/en16931/loader.ts in the Lambda bundles (infra/constructs/api-function.ts,
// EN16931_CHUNK): the EN 16931 rules are the chunk en16931.mjs built beside the bundle, imported on first use.
export const judgeEn16931 = async (record) =>
  (await import(new URL('./en16931.mjs', import.meta.url).href)).findingsOf(record)
