/**
 * `@ng-einvoicing/client`: the typed client of the API and its request signing, for integrators and
 * for this project's own tests. Built to dist/ (JavaScript and .d.ts) by `npm run client:build`; no
 * dependency beyond Node's built-ins and its global fetch. README.md beside this file.
 */
export * from './api-client.ts'
export type { components, operations, paths } from './api-types.ts'
export * from './signing.ts'
export * from './receipts/crypto.ts'
export * from './receipts/verify-url.ts'
