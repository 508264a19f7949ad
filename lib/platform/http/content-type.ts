/**
 * A repeated header reaches a handler as one value joined by commas (API Gateway HTTP APIs do this,
 * and the local server does the same). A client that sends `Content-Type: application/json` twice
 * (curl with the signing CLI's header plus its own -H) means one media type, so identical repeats
 * are collapsed to one before the JSON body parser judges the type. Different values stay as they
 * are and are refused with 415 as before: which one the client meant cannot be known.
 */
export function collapseRepeatedContentType(headers: Record<string, string | undefined>): void {
  const value = headers['content-type']
  if (value === undefined || !value.includes(',')) return
  const parts = value.split(',').map((part) => part.trim())
  const first = parts[0]!.toLowerCase()
  if (parts.every((part) => part.toLowerCase() === first)) headers['content-type'] = parts[0]!
}
