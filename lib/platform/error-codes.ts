/**
 * The error codes the platform itself sends (CONTRACT 20): the refusals every area shares (body,
 * media type, routing, authentication, roles, the request schemas' field problems) and the Area B
 * and C response codes. One entry per code: the HTTP status it is sent with, what it means and what
 * the client should do. Adding a code is one line here (or in the domain's own table, e.g.
 * lib/invoice/rule-codes.ts); lib/service/error-catalogue.ts joins the tables into the one catalogue
 * that docs/errors.md and the OpenAPI document are generated from, and the test harness refuses a
 * reply whose code it lacks.
 *
 * No function bundles this file (only its type): throw sites write the code as a literal.
 */
export interface ErrorCodeEntry {
  status: number
  meaning: string
  /** What the client should do about it. */
  action: string
}

const FIX = 'Correct the field named by `path` as the message says, and send the request again'

export const PLATFORM_CODES = {
  // The request schemas' field problems (lib/platform/http/validation.ts maps zod's issues to these).
  FIELD_REQUIRED: {
    status: 400,
    meaning: 'A required field, query or path parameter is missing',
    action: FIX,
  },
  FIELD_TYPE: { status: 400, meaning: 'A field has the wrong JSON type', action: FIX },
  FIELD_FORMAT: {
    status: 400,
    meaning: 'A string does not have its form (pattern, date, id, e-mail)',
    action: FIX,
  },
  FIELD_VALUE: { status: 400, meaning: 'A value is not one of the values allowed', action: FIX },
  FIELD_RANGE: {
    status: 400,
    meaning: 'A length, count or number is outside its range (or not a multiple of its step)',
    action: FIX,
  },
  FIELD_UNKNOWN: {
    status: 400,
    meaning: 'A body has keys its endpoint does not take',
    action: 'Remove the keys the message names',
  },
  FIELD_RULE: {
    status: 400,
    meaning: 'A value breaks a rule of its field (the message says which)',
    action: FIX,
  },
  // The body as a whole.
  BODY_EMPTY: {
    status: 400,
    meaning: 'The request body is empty where a JSON object is expected',
    action: 'Send a JSON object with Content-Type: application/json',
  },
  BODY_NOT_JSON: {
    status: 400,
    meaning: 'The request body is not valid JSON',
    action: 'Check quoting, commas and brackets; send UTF-8 JSON',
  },
  BODY_TOO_LARGE: {
    status: 413,
    meaning: 'The request body is larger than 1 MiB',
    action: 'Send a smaller body (split a batch, shorten notes)',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'The body was sent with a Content-Type other than application/json',
    action: 'Send Content-Type: application/json',
  },
  // Routing.
  ROUTE_NOT_FOUND: {
    status: 404,
    meaning: 'No endpoint has this method and path',
    action:
      'Check the path and version against the API reference (/api/docs); the message names the nearest one',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The path exists, but not with this method',
    action: 'Use one of the methods of the Allow header',
  },
  // Idempotency-Key (every route that takes one).
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    meaning: 'The Idempotency-Key was already used with a different request body',
    action: 'Use a new key for a new request; the same key only with the same body',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    meaning: 'A request with this Idempotency-Key is still being handled',
    action: 'Retry after Retry-After seconds: you get its reply',
  },
  // Authentication and authorisation (lib/platform/auth/refusal.ts: the refusal reason, upper case).
  MISSING_CREDENTIALS: {
    status: 401,
    meaning:
      'A credential header (x-api-key, x-api-signature, x-api-timestamp, or the bearer token) is missing',
    action: "Send every header of the area's scheme (docs/authentication.md)",
  },
  UNKNOWN_KEY: {
    status: 401,
    meaning: 'The API key or bearer token is not one the service issued',
    action: 'Check the key or token, and that it belongs to this deployment',
  },
  REVOKED_KEY: {
    status: 401,
    meaning: 'The API key has been revoked',
    action: 'Ask for (or issue) a new key',
  },
  MALFORMED_TIMESTAMP: {
    status: 401,
    meaning: 'x-api-timestamp is not an ISO 8601 date-time with a zone',
    action: 'Send the time as e.g. 2026-11-21T10:15:30Z',
  },
  TIMESTAMP_OUT_OF_WINDOW: {
    status: 401,
    meaning: 'x-api-timestamp is more than 5 minutes from the server clock',
    action: 'Synchronise your clock (NTP) and sign the request again',
  },
  MALFORMED_SIGNATURE: {
    status: 401,
    meaning: 'x-api-signature is not standard padded Base64 of a 32-byte HMAC-SHA256',
    action: 'Send Base64 of the raw HMAC bytes, not hex',
  },
  SIGNATURE_MISMATCH: {
    status: 401,
    meaning: "x-api-signature does not match the request under any of the key's secrets",
    action:
      'Sign METHOD, PATH?QUERY, the timestamp and the body hash exactly as sent (docs/authentication.md)',
  },
  REPLAY: {
    status: 401,
    meaning: 'This signed request was already received',
    action: 'Sign every request afresh, with a new timestamp',
  },
  ROLE_FORBIDDEN: {
    status: 403,
    meaning: "The API key's roles do not allow this route; `required_roles` lists the roles that do",
    action:
      'Call with a key holding one of the roles named (SI: /si/ and /resource/, APP: /app/invoice/ and /resource/, ADMIN: all)',
  },
  MERCHANT_MISMATCH: {
    status: 403,
    meaning: "x-Merchant-Id names another merchant than the bearer token's",
    action: 'Send the merchant id the token was issued to',
  },
  MODE_FORBIDDEN: {
    status: 403,
    meaning: 'A route of test mode only was called with a live credential',
    action: "Use the credential's test-mode twin",
  },
  // What a refusal carries when its place gives no code of its own, by status.
  INVALID_REQUEST: { status: 400, meaning: 'The request is refused; the message says why', action: FIX },
  UNAUTHENTICATED: {
    status: 401,
    meaning: 'The request is not authenticated; the message says why',
    action: 'Authenticate as docs/authentication.md shows',
  },
  FORBIDDEN: {
    status: 403,
    meaning: 'The credential may not do this; the message names what may',
    action: 'Use the credential the message names',
  },
  NOT_FOUND: {
    status: 404,
    meaning:
      'The invoice, business, subscription, template or other record named does not exist for the caller',
    action: "Check the id; another business's records are never shown",
  },
  CONFLICT: {
    status: 409,
    meaning:
      "The request conflicts with the record's state (already done, changed meanwhile, a limit reached)",
    action: 'Read the record again; retry only when the message says so',
  },
  TOO_LARGE: {
    status: 413,
    meaning: 'What the request would store or reply is too large',
    action: 'Send less at once',
  },
  RATE_LIMITED: {
    status: 429,
    meaning: 'The key (or its business) is over its rate limit',
    action: 'Wait the seconds of Retry-After; see the RateLimit headers',
  },
  UNAVAILABLE: {
    status: 503,
    meaning: 'A service this request depends on is unavailable or throttled',
    action: 'Retry after Retry-After seconds, with the same Idempotency-Key or requestId',
  },
  INTERNAL_ERROR: {
    status: 500,
    meaning: 'A bug: logged with the request id',
    action: 'Report the x-request-id to the operator',
  },
} as const satisfies Record<string, ErrorCodeEntry>

export type PlatformCode = keyof typeof PLATFORM_CODES

/**
 * Areas B and C: `responseCode`, in the ISO 8583 style the switch speaks (CONTRACT 6 and 7).
 * `status` is the HTTP status the code is sent with.
 */
export const RESPONSE_CODES = {
  '00': { status: 200, meaning: 'Approved', action: 'Nothing' },
  '03': {
    status: 404,
    meaning: 'No active merchant has this merchantId',
    action: 'Check merchantId; nothing was recorded',
  },
  '06': {
    status: 409,
    meaning: 'Dormant account: the account exists but takes no postings',
    action: 'Ask the account holder to reactivate it at their bank; nothing was recorded',
  },
  '12': {
    status: 409,
    meaning:
      'Invalid transaction: a reversal of a declined or already reversed transfer, or one after the reversal window (also 405 on an Area B or C path)',
    action: 'Read the original transfer: nothing is left to reverse',
  },
  '13': {
    status: 400,
    meaning:
      "amount is not a number, zero or negative, has more than 2 decimals or is too large; or a reversal's amount is not its transfer's full amount",
    action: 'Send amount in naira, more than 0, at most 2 decimals',
  },
  '14': { status: 404, meaning: 'No such account', action: 'Check accountNumber; nothing was recorded' },
  '25': {
    status: 404,
    meaning: "Record not found: a reversal's original transfer, or a path that does not exist",
    action: 'Check originalRequestId (or the path)',
  },
  '26': {
    status: 409,
    meaning: 'The requestId was already used for a different request',
    action: 'Use a new requestId for a new request; resend the same body to get the first reply',
  },
  '30': {
    status: 400,
    meaning: 'Format error: a field, query or the body is not of its form (`errors` lists each)',
    action: 'Correct the fields `errors` names',
  },
  '51': {
    status: 200,
    meaning: 'Insufficient funds: a decline, recorded and answered again for the same requestId',
    action: 'Nothing to retry: the transfer is FAILED',
  },
  '63': {
    status: 401,
    meaning:
      'Security violation: a missing or unknown bearer token (401), or x-Merchant-Id naming another merchant (403)',
    action: 'Send the bearer token issued to you, and its own merchant id',
  },
  '65': {
    status: 429,
    meaning: 'Exceeds frequency limit: the client is over its rate limit',
    action: 'Wait the seconds of Retry-After',
  },
  '91': {
    status: 401,
    meaning: 'Invalid signature: X-Signature does not match the request',
    action: 'Sign the five lines exactly as sent (docs/authentication.md)',
  },
  '92': {
    status: 401,
    meaning: 'Timestamp expired: X-Timestamp is not UTC with Z, or more than 300 s from the server clock',
    action: 'Synchronise your clock and sign again',
  },
  '93': {
    status: 401,
    meaning: 'Duplicate nonce: this X-Nonce was already used',
    action: 'Send a fresh nonce with every request',
  },
  '94': {
    status: 401,
    meaning: 'Missing signature: X-Signature, X-Timestamp or X-Nonce is missing or empty',
    action: 'Send all three headers',
  },
  '95': {
    status: 401,
    meaning:
      'Malformed signature: X-Signature is not padded Base64 of 32 bytes, or X-Nonce not 16-64 of [A-Za-z0-9_-]',
    action: 'Send Base64 of the raw HMAC bytes and a nonce of that form',
  },
  '96': {
    status: 503,
    meaning: 'System malfunction: a dependency is down or the account too busy',
    action: 'Retry with the same requestId after Retry-After',
  },
} as const satisfies Record<string, ErrorCodeEntry>
