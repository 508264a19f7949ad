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

/**
 * The commands the project sends with each SDK client whose errors sdkErrorsOfSentCommands trims, by
 * the client's package name (@aws-sdk/client-<name>). The lib-dynamodb commands are named by the
 * DynamoDB operation they send (GetCommand sends GetItem). test/infra/bundle-plugins.test.ts holds
 * this list to the commands the project's code imports.
 */
export const SENT_COMMANDS = {
  // The KMS keyring's three calls (shims/kms-client.mjs).
  kms: ['Decrypt', 'Encrypt', 'GenerateDataKey'],
  'secrets-manager': ['GetSecretValue'],
  dynamodb: [
    'BatchGetItem',
    'BatchWriteItem',
    'DeleteItem',
    'GetItem',
    'PutItem',
    'Query',
    'TransactWriteItems',
    'UpdateItem',
  ],
} as const satisfies Record<string, readonly string[]>

/** The error shapes a command's model lists, read from its documentation (`@throws {@link X}`). */
export const errorsOfCommand = (clientDir: string, command: string): string[] =>
  [
    ...readFileSync(join(clientDir, 'dist-types', 'commands', `${command}Command.d.ts`), 'utf8').matchAll(
      /@throws \{@link (\w+)\}/g,
    ),
  ].map((m) => m[1]!)

/**
 * An SDK client registers a class for every error of its service (its schemas_0.js calls
 * `registerError` for each), so all of them are bundled, though only the errors of the commands a
 * function sends can come back: KMS has 48 (about 12 KB), DynamoDB 35, Secrets Manager 12. The
 * registry is what the SDK throws by: a registered error comes back as its class, an unknown one as
 * the service's base exception with the same `name` (@aws-sdk/core ProtocolLib). This keeps the
 * registration of every error the sent commands' models list (SENT_COMMANDS) and of the service's
 * base exception, and leaves the others out; so every error those commands can return is thrown as
 * before. The project's code tells SDK errors apart by `name` only (lib/platform/db/errors.ts,
 * transact.ts), never by class.
 */
const sdkErrorsOfSentCommands: Plugin = {
  name: 'sdk-errors-of-sent-commands',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@aws-sdk[\\/]client-[\w-]+[\\/]dist-es[\\/]schemas[\\/]schemas_0\.js$/ },
      (args) => {
        const clientDir = join(dirname(args.path), '..', '..')
        const name = /client-([\w-]+)$/.exec(clientDir)![1]! as keyof typeof SENT_COMMANDS
        const commands = SENT_COMMANDS[name] as readonly string[] | undefined
        if (!commands) return undefined
        const kept = new Set(commands.flatMap((c) => errorsOfCommand(clientDir, c)))
        const dropped: string[] = []
        // Each error's schema and its registration, together: esbuild keeps an unused schema (its
        // traits object has computed keys, which might have side effects), so both go.
        const contents = readFileSync(args.path, 'utf8').replace(
          /^export var (\w+)\$ = \[-3, n0,[^;]*?\n\];\nn0_registry\.registerError\(\1\$, \1\);$/gm,
          (block, error: string) => {
            if (kept.has(error)) return block
            dropped.push(error)
            return ''
          },
        )
        const stillNamed = dropped.filter((error) => new RegExp(`\\b${error}\\$`).test(contents))
        if (stillNamed.length > 0) throw new Error(`${args.path}: ${stillNamed.join(', ')} still named`)
        return {
          contents,
          loader: 'js',
          resolveDir: dirname(args.path),
        }
      },
    )
  },
}

/** The plugins every function and chunk is bundled with (esbuildOptionsFor). */
export const bundlePlugins = (): Plugin[] => [
  zodWithoutJsonSchema,
  sdkClientVersionOnly,
  sdkErrorsOfSentCommands,
]
