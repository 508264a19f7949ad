/**
 * DynamoDB's refusals, recognised in one place so that services can turn them into domain errors
 * (a failed condition is usually a conflict or a duplicate, never a 500).
 */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException'
}

/**
 * Errors that mean DynamoDB could not be reached or refused for capacity, as opposed to a request
 * it understood and rejected. These become 503s: the caller may retry.
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as Error & { code?: string }).code
  return (
    [
      'ProvisionedThroughputExceededException',
      'RequestLimitExceeded',
      'ThrottlingException',
      // Lambda's throttle (a function invoking another, or API Gateway's integration) and its limits.
      'TooManyRequestsException',
      'InternalServerError',
      'ServiceUnavailable',
      'TimeoutError',
    ].includes(error.name) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code ?? '') ||
    /ECONNREFUSED|socket hang up|ECONNRESET/.test(error.message)
  )
}
