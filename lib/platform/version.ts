/**
 * The service's version, package.json's `version`: what the health check reports and the OpenAPI
 * document's `info.version` (the interface it implements, 3.1.0, is named in the document's
 * description). Written here rather than imported from package.json, which would put the whole
 * manifest in every bundle; test/unit/platform/docs-trust.test.ts keeps the two equal, and
 * CHANGELOG.md has an entry for it.
 */
export const SERVICE_VERSION = '0.2.0'
