import { DomainError, type ErrorKind, type Problem } from '#lib/errors.ts'

/**
 * The edge: an error as the reply records carry it (status, problems, response code, headers). The
 * factory's own refusals (size, media type, method, the generic 500) are made here; every domain
 * error (lib/errors.ts) is mapped here, once, by its kind.
 */
export interface ApiErrorOptions {
  problems?: Problem[]
  responseCode?: string
  headers?: Record<string, string>
  cause?: unknown
}

export class ApiError extends Error {
  readonly status: number
  readonly problems: Problem[]
  readonly responseCode: string | undefined
  readonly headers: Record<string, string>

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.status = status
    this.problems = options.problems ?? []
    this.responseCode = options.responseCode
    this.headers = options.headers ?? {}
  }
}

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  unavailable: 503,
}

/** The HTTP status a domain error is sent with. */
export const statusOf = (error: DomainError): number => STATUS[error.kind]

/** A domain error as the edge sends it, or undefined for anything else (a bug: a 500). */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error
  if (error instanceof DomainError) {
    return new ApiError(STATUS[error.kind], error.message, {
      problems: error.problems,
      ...(error.responseCode === undefined ? {} : { responseCode: error.responseCode }),
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { headers: { 'retry-after': String(error.retryAfterSeconds) } }),
    })
  }
  return undefined
}

export type { Problem }
