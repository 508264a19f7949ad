import type { Iso20022Case } from '#lib/platform/iso20022.ts'
import { DomainError, type Problem, statusOf } from '#lib/platform/errors.ts'

/**
 * The edge: an error as the reply records carry it (status, problems, response code, headers). The
 * factory's own refusals (size, media type, method, the generic 500) are made here; every domain
 * error (lib/platform/errors.ts) is mapped here, once, by its kind.
 */
export interface ApiErrorOptions {
  problems?: Problem[]
  /** Shown beside the problems (Area A's records): what was ignored without failing the request. */
  warnings?: Problem[]
  /** Found but not carried: counted in the reply's `truncated` (lib/platform/reply-bounds.ts). */
  notListed?: { errors?: number; warnings?: number }
  /** An invoice's EN 16931 findings, sent beside the problems (lib/platform/errors.ts). */
  en16931?: readonly object[]
  responseCode?: string
  iso20022Case?: Iso20022Case
  /** The reply's code when it lists no problems (lib/platform/error-codes.ts). */
  code?: string
  /** A 403: the roles that may call the route. */
  requiredRoles?: readonly string[]
  headers?: Record<string, string>
  cause?: unknown
}

export class ApiError extends Error {
  readonly status: number
  readonly problems: Problem[]
  readonly warnings: Problem[]
  readonly notListed: { errors?: number; warnings?: number }
  readonly en16931: readonly object[] | undefined
  readonly responseCode: string | undefined
  readonly iso20022Case: Iso20022Case | undefined
  readonly headers: Record<string, string>
  readonly code: string | undefined
  readonly requiredRoles: readonly string[] | undefined

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.status = status
    this.problems = options.problems ?? []
    this.warnings = options.warnings ?? []
    this.notListed = options.notListed ?? {}
    this.en16931 = options.en16931
    this.responseCode = options.responseCode
    this.iso20022Case = options.iso20022Case
    this.headers = options.headers ?? {}
    this.code = options.code
    this.requiredRoles = options.requiredRoles
  }
}

/** A domain error as the edge sends it, or undefined for anything else (a bug: a 500). */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error
  if (error instanceof DomainError) {
    return new ApiError(statusOf(error), error.message, {
      problems: error.problems,
      warnings: error.warnings,
      notListed: error.notListed,
      ...(error.en16931 === undefined ? {} : { en16931: error.en16931 }),
      ...(error.responseCode === undefined ? {} : { responseCode: error.responseCode }),
      ...(error.iso20022Case === undefined ? {} : { iso20022Case: error.iso20022Case }),
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(error.requiredRoles === undefined ? {} : { requiredRoles: error.requiredRoles }),
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { headers: { 'retry-after': String(error.retryAfterSeconds) } }),
    })
  }
  return undefined
}

export type { Problem }
