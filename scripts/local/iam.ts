import { AsyncLocalStorage } from 'node:async_hooks'
import { appendFileSync } from 'node:fs'
import { type AwsCall, installAwsGuard } from '#lib/platform/aws-guard.ts'
import { requestsOf } from '#lib/platform/db/iam-requests.ts'
import type { Access } from '#lib/platform/iam/access.ts'
import { AccessDeniedException, denialOf } from '#lib/platform/iam/evaluate.ts'
import { accessOfFunctions } from '#lib/service/function-access.ts'

/**
 * IAM in every local run. DynamoDB Local, the local key files and the in-process queues check no
 * permission, so without this a call the function's role does not allow passes every test and fails
 * first in AWS. The local runner (server.ts for the routes, consumers.ts and workers.ts for the stream
 * and queue consumers) runs each invocation inside `asFunction(functionId, ...)`; the guard installed
 * here (lib/platform/aws-guard.ts) then refuses, with AWS's AccessDeniedException, every call that function's
 * Access does not allow. Calls made outside any invocation (test setup, seeding, the CLI) are an
 * operator's, not a function's, and are not checked.
 *
 * Whose grants: from sources, the Access the policies are generated from (lib/service/function-access.ts);
 * serving the bundles of a `cdk synth`, the grants read back from its templates (cloud-grants.ts).
 */

const calling = new AsyncLocalStorage<string>()

/** Runs `fn` as an invocation of `functionId`: its AWS calls are held to that function's role. */
export function asFunction<T>(functionId: string, fn: () => T): T {
  return calling.run(functionId, fn)
}

/** The function the current code runs in, if any. */
export const callingFunction = (): string | undefined => calling.getStore()

export type Grants = ReadonlyMap<string, Access>

let installed: Grants | undefined
const reported = new Set<string>()

/**
 * Installs the guard with `grants` (functionId -> Access; the sources' derivation by default). The
 * server and the workers of one run both call it; the grants of the first call stay (one process
 * holds one deployment's roles).
 */
export function installLocalIam(grants?: Grants): Grants {
  if (installed && !grants) return installed
  installed = grants ?? accessOfFunctions()
  const current = installed
  installAwsGuard((call) => {
    const functionId = calling.getStore()
    if (functionId === undefined) return
    const access = current.get(functionId)
    if (!access) throw new Error(`local IAM: no grants are known for function ${functionId}`)
    if (RECORD_FILE) record(functionId, call)
    const denial = denialOf(access, call)
    if (!denial) return
    const error = new AccessDeniedException(functionId, denial)
    // Once per function and action, on stderr: the handler usually turns the error into a 500 whose
    // reply says nothing, and this line says why.
    const seen = `${functionId} ${denial.action} ${denial.resource}`
    if (!reported.has(seen)) {
      reported.add(seen)
      console.error(`local IAM: ${error.message}`)
    }
    throw error
  }, requestsOf)
  return current
}

/**
 * LOCAL_IAM_RECORD=<file>: every DynamoDB request a function makes is appended to the file as one JSON
 * line (function, action, index, the partition key's prefix up to its first `#`), allowed or not. Run a
 * new endpoint's tests with it to see which record kinds its declaration's `access` must name
 * (docs/adding-an-endpoint.md).
 */
const RECORD_FILE = process.env.LOCAL_IAM_RECORD
const prefixOf = (key: string | undefined) =>
  key === undefined ? undefined : key.includes('#') ? key.slice(0, key.indexOf('#') + 1) : key

function record(functionId: string, call: AwsCall) {
  if (call.service !== 'dynamodb') return
  const lines = call.requests.map((r) =>
    JSON.stringify({ functionId, action: r.action, index: r.index, prefix: prefixOf(r.leadingKey) }),
  )
  appendFileSync(RECORD_FILE!, `${lines.join('\n')}\n`)
}

/** Removes the guard (a test that installed its own grants puts the run's back this way). */
export function uninstallLocalIam(): void {
  installed = undefined
  installAwsGuard(undefined)
}
