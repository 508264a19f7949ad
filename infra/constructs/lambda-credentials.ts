import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env'

/**
 * Bundled in place of `@aws-sdk/credential-provider-node` (an esbuild alias, bundleAliases(); never
 * imported by the project's code). Lambda gives every function its execution role's credentials in
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (reserved runtime variables:
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime),
 * so in Lambda the SDK's default chain always stops at its first link, the environment. The rest
 * of the chain (profiles, SSO, web identity, process, container and instance metadata, with the STS
 * and SSO clients they carry) costs every bundle about 130 KB and 15-20 ms of import
 * (BENCHMARKS.md). Tests, the local server and the CLI are not bundled and keep the whole chain.
 *
 * The clients import `defaultProvider` by name: if a new SDK version asks for anything else, esbuild
 * fails the build rather than ship a bundle without credentials.
 */
export const defaultProvider = (init: FromEnvInit = {}) => fromEnv(init)
