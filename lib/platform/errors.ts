import type { Iso20022Case } from './iso20022.ts'
import { MAX_LISTED } from './reply-bounds.ts'

/**
 * Domain errors: what went wrong, in the domain's terms. Services throw these and know nothing of
 * HTTP; the handler factory maps each kind to its status (`statusOf`, below) and the route area's
 * error record at the edge (lib/platform/http/errors.ts). Anything else that escapes a handler is a bug and becomes a 500 with a
 * generic message.
 */

/** One problem found in a request: where, a stable code, and what a person should do about it. */
export interface Problem {
  path: string
  code: string
  message: string
}

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'rate-limited'
  | 'unavailable'

/**
 * The HTTP status each kind is sent with. Here rather than at the edge (lib/platform/http/errors.ts, which maps
 * errors with it) so that code below the edge can name it too: the refusal log (lib/platform/auth/refusal.ts).
 */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'rate-limited': 429,
  unavailable: 503,
}

export interface DomainErrorOptions {
  /**
   * The reply's stable code (lib/platform/error-codes.ts and the catalogue, docs/errors.md) when the
   * error lists no problems; left out, the edge sends its status's generic code.
   */
  code?: string
  /** A 403: the roles that may call the route (CONTRACT 20), sent as `required_roles`. */
  requiredRoles?: readonly string[]
  /** Every problem found, for validation failures. */
  problems?: Problem[]
  /**
   * What the request got past without failing (unknown keys ignored), shown beside a 400's problems:
   * an ignored `invoice_date` is often the reason `issue_date` is missing.
   */
  warnings?: Problem[]
  /**
   * Problems found but not carried (validation stops collecting past the reply's bound,
   * lib/platform/reply-bounds.ts): the reply's `truncated` counts them with the ones it leaves out.
   */
  notListed?: { errors?: number; warnings?: number }
  /**
   * An invoice refused with 400 by a validate endpoint: its EN 16931 findings (CONTRACT 22),
   * informational, sent as the reply's `en16931` beside the problems.
   */
  en16931?: readonly object[]
  /**
   * The response code the bank's and merchants' records carry (Areas B and C, ISO 8583 style, e.g.
   * "51" insufficient funds, "91" bad signature): part of the domain's language with the switch.
   */
  responseCode?: string
  /** The case that refines the code's ISO 20022 reason (lib/platform/iso20022.ts): a second reversal. */
  iso20022Case?: Iso20022Case
  /** When trying again makes sense, and how soon (the edge sends it as Retry-After). */
  retryAfterSeconds?: number
  cause?: unknown
}

export class DomainError extends Error {
  readonly kind: ErrorKind
  readonly problems: Problem[]
  readonly warnings: Problem[]
  readonly notListed: { errors?: number; warnings?: number }
  readonly en16931: readonly object[] | undefined
  readonly responseCode: string | undefined
  readonly iso20022Case: Iso20022Case | undefined
  readonly retryAfterSeconds: number | undefined
  code: string | undefined
  readonly requiredRoles: readonly string[] | undefined

  constructor(kind: ErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.kind = kind
    this.problems = options.problems ?? []
    this.warnings = options.warnings ?? []
    this.notListed = options.notListed ?? {}
    this.en16931 = options.en16931
    this.responseCode = options.responseCode
    this.iso20022Case = options.iso20022Case
    this.retryAfterSeconds = options.retryAfterSeconds
    this.code = options.code
    this.requiredRoles = options.requiredRoles
  }
}

export class BadRequest extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('invalid', message, options)
  }
}

export class Unauthorized extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('unauthenticated', message, options)
  }
}

export class Forbidden extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('forbidden', message, options)
  }
}

export class NotFound extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('not-found', message, options)
  }
}

export class Conflict extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('conflict', message, options)
  }
}

export class TooLarge extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('too-large', message, options)
  }
}

export class DependencyDown extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super('unavailable', message, options)
  }
}

/** The HTTP status a domain error is sent with. */
export const statusOf = (error: DomainError): number => STATUS[error.kind]

/**
 * Validation failures: one problem per issue found, reported together. Past the reply's bound
 * (lib/platform/reply-bounds.ts) the count is not exact: the validation stopped looking.
 */
export function invalid(
  problems: Problem[],
  summary = 'The request is invalid',
  warnings: Problem[] = [],
  notListed: DomainErrorOptions['notListed'] = {},
  en16931?: DomainErrorOptions['en16931'],
): BadRequest {
  const count = problems.length
  const found =
    count > MAX_LISTED
      ? `more than ${MAX_LISTED} problems found; the first ${MAX_LISTED} are listed`
      : `${count} problem${count === 1 ? '' : 's'} found`
  return new BadRequest(`${summary}: ${found}`, {
    problems,
    warnings,
    notListed,
    ...(en16931 ? { en16931 } : {}),
  })
}
