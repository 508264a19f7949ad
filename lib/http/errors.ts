/**
 * Domain errors. Services throw these; the handler factory's error middleware turns each into the
 * error record of the route's area. Anything else that escapes a handler is a bug and becomes a 500
 * with a generic message.
 */

/** One problem found in a request: where, a stable code, and what a person should do about it. */
export interface Problem {
  path: string
  code: string
  message: string
}

export interface ApiErrorOptions {
  /** Every problem found, for validation failures. */
  problems?: Problem[]
  /**
   * The response code for the areas whose records carry one (B and C: `responseCode`, e.g. "91").
   * Defaults per HTTP status in replies.ts.
   */
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

export class BadRequest extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(400, message, options)
  }
}

export class Unauthorized extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(401, message, options)
  }
}

export class Forbidden extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(403, message, options)
  }
}

export class NotFound extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(404, message, options)
  }
}

export class Conflict extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(409, message, options)
  }
}

export class DependencyDown extends ApiError {
  constructor(message: string, options?: ApiErrorOptions) {
    super(503, message, options)
  }
}

/** Validation failures: one problem per issue found, reported together. */
export function invalid(problems: Problem[], summary = 'The request is invalid'): BadRequest {
  const count = problems.length
  return new BadRequest(`${summary}: ${count} problem${count === 1 ? '' : 's'} found`, { problems })
}
