import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The sandbox's two modes (CONTRACT section 15). Every credential has one; every record a request
 * touches lives in its credential's mode, and the other mode's records are out of its reach because
 * their keys differ (lib/platform/db/keys.ts), never because a filter hides them.
 *
 * The mode travels with the work, not through every function's parameters: a request runs in the
 * mode its credential established (lib/platform/http/factory.ts), a stream record in the mode its key carries
 * and a queued message in the mode it was sent in (lib/platform/async). The key builders read it here, so a
 * record cannot be written or read in another mode than the work's by forgetting an argument.
 * Outside any of these (the operator's CLI, the local seed) work is live unless it asks for test.
 */
export type Mode = 'live' | 'test'
export const MODES: readonly Mode[] = ['live', 'test']

interface ModeScope {
  mode: Mode
}

const scope = new AsyncLocalStorage<ModeScope>()

/** The mode of the work running now. */
export const currentMode = (): Mode => scope.getStore()?.mode ?? 'live'

/** Runs `fn` (and everything it awaits or starts) in `mode`. */
export function inMode<T>(mode: Mode, fn: () => T): T {
  return scope.run({ mode }, fn)
}

/**
 * Runs one request in a scope of its own, live until authentication says otherwise (setRequestMode):
 * the handler factory wraps every function with this.
 */
export function inRequestScope<T>(fn: () => T): T {
  return scope.run({ mode: 'live' }, fn)
}

/** The request's credential has this mode: everything after authentication runs in it. */
export function setRequestMode(mode: Mode): void {
  const store = scope.getStore()
  if (!store)
    throw new Error(
      'setRequestMode outside a request scope (lib/platform/http/factory.ts wraps every handler)',
    )
  store.mode = mode
}

/**
 * The mark test-mode keys carry right after their record prefix (`IRN#T~<irn>`): live keys are as they
 * always were, so live data written before the sandbox stays where it is. No identifier the service
 * issues or accepts begins with it (IRNs, TINs, account numbers, ids are letters, digits, `-` and `_`).
 */
export const TEST_MARK = 'T~'

/** An identifier as the current mode's keys hold it. */
export const scoped = (id: string): string => (currentMode() === 'test' ? `${TEST_MARK}${id}` : id)

/** The mode a stored item belongs to, from its partition key (`PREFIX#T~...` is test). */
export function modeOfKey(pk: string): Mode {
  const hash = pk.indexOf('#')
  return hash >= 0 && pk.startsWith(TEST_MARK, hash + 1) ? 'test' : 'live'
}

/** Parses a mode from user input (CLI, request bodies); undefined if it is neither. */
export const parseMode = (value: unknown): Mode | undefined =>
  value === 'live' || value === 'test' ? value : undefined
