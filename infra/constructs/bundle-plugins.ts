import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Plugin } from 'esbuild'

/**
 * What the bundles leave out that an alias cannot reach: code a package imports by relative path
 * (esbuild's `alias` takes package paths only), measured with bench/bundle-contents.ts. Each is code
 * no function runs; which is why each is safe is said beside it. test/infra/bundle-plugins.test.ts
 * holds them.
 */

/** The names a module exports (`export function x`, `export const x`), read from its text. */
const exportsOf = (file: string): string[] =>
  [
    ...readFileSync(file, 'utf8').matchAll(/^export (?:async )?(?:function\*?|const|let|class) ([\w$]+)/gm),
  ].map((m) => m[1]!)

/** The message of a JSON Schema call in a bundle: none of them makes one. */
export const NO_JSON_SCHEMA =
  'zod JSON Schema is left out of the Lambda bundles (infra/constructs/bundle-plugins.ts)'

/**
 * zod's JSON Schema generation (z.toJSONSchema, a schema's toJSONSchema() and its Standard Schema
 * `jsonSchema`), about 17 KB of every bundle that validates with zod. Only `npm run openapi`
 * (lib/service/openapi/document.ts) makes JSON Schema, outside any function; the OpenAPI function
 * serves the committed document. zod's classic schemas import the two modules for those methods
 * alone, so they get stand-ins with the same exports: the method factories give methods that throw
 * NO_JSON_SCHEMA when called, the processors throw (only JSON Schema generation calls them).
 */
const zodWithoutJsonSchema: Plugin = {
  name: 'zod-without-json-schema',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), args.path), namespace: 'zod-without-json-schema' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'zod-without-json-schema' }, (args) => ({
      contents: [
        `const absent = () => { throw new Error(${JSON.stringify(NO_JSON_SCHEMA)}) }`,
        ...exportsOf(args.path).map((name) =>
          name.startsWith('create') ? `export const ${name} = () => absent` : `export const ${name} = absent`,
        ),
      ].join('\n'),
      loader: 'js',
    }))
  },
}

/**
 * The AWS SDK clients read their own package.json for its `version` (the user agent), and esbuild
 * bundles a JSON file's default import whole: about 2 KB per client. The client's runtime config gets
 * `{ version }` of the same file (@aws-sdk/client-<name>/dist-es/runtimeConfig.js, the only reader).
 */
const sdkClientVersionOnly: Plugin = {
  name: 'sdk-client-version-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/package\.json$/ }, (args) =>
      /[\\/]@aws-sdk[\\/]client-[\w-]+[\\/]dist-es[\\/]runtimeConfig\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), args.path), namespace: 'sdk-client-version-only' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'sdk-client-version-only' }, (args) => ({
      contents: JSON.stringify({
        version: (JSON.parse(readFileSync(args.path, 'utf8')) as { version: string }).version,
      }),
      loader: 'json',
    }))
  },
}

/** The plugins every function and chunk is bundled with (esbuildOptionsFor). */
export const bundlePlugins = (): Plugin[] => [zodWithoutJsonSchema, sdkClientVersionOnly]
