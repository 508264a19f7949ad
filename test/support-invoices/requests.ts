import { expect } from 'vitest'
import type { AreaACredentials } from '#client/signing.ts'
import { signAreaA } from '#client/signing.ts'
import { type HttpReply, send } from '../support/api.ts'

/**
 * Area A requests for concurrency tests. The replay guard refuses a repeated (key, signature) pair,
 * and identical requests signed in the same millisecond have identical signatures; so every request
 * here gets its own strictly increasing timestamp (still well inside the 5-minute window).
 */
let lastMs = 0
function uniqueTimestamp(): string {
  lastMs = Math.max(Date.now(), lastMs + 1)
  return new Date(lastMs).toISOString()
}

export function parallelClient(baseUrl: string, credentials: AreaACredentials) {
  const request = <T = any>(method: string, target: string, body?: unknown): Promise<HttpReply<T>> => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers = {
      ...signAreaA(credentials, { method, target, body: payload ?? '', timestamp: uniqueTimestamp() }),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    }
    return send<T>(`${baseUrl}${target}`, { method, headers, body: payload })
  }
  return {
    post: <T = any>(target: string, body: unknown) => request<T>('POST', target, body),
    patch: <T = any>(target: string, body: unknown) => request<T>('PATCH', target, body),
    get: <T = any>(target: string) => request<T>('GET', target),
  }
}

const textOf = (message: RegExp | string) =>
  typeof message === 'string' ? message : expect.stringMatching(message)

/**
 * A refusal of the request as a whole (no problem of a field): one item with an empty path, its code
 * (a catalogue code: the harness checks which, test/support/contract.ts) and the message (CONTRACT 20).
 */
const refusalOf = (message: RegExp | string) => [
  { path: '', code: expect.stringMatching(/^[A-Z][A-Z_]+$/), message: textOf(message) },
]

/** FirsErrorDetails (A.9 plus the contract's errors list), for whole-reply assertions. */
export const firsError = (
  status: string,
  message: RegExp | string,
  errors: unknown[] = refusalOf(message),
) => ({
  timestamp: expect.any(String),
  message: textOf(message),
  details: expect.any(String),
  status,
  errors,
})

/** The failure Envelope around FirsErrorDetails. */
export const failedEnvelope = (
  status: string,
  message: RegExp | string,
  errors: unknown[] = refusalOf(message),
) => ({
  status: 'FAILED',
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  data: null,
  execTime: expect.stringMatching(/^\d+ms$/),
  error: firsError(status, message, errors),
})

/** The success Envelope. */
export const envelope = (data: unknown, message: unknown = expect.any(String)) => ({
  status: 'SUCCESS',
  message,
  data,
  execTime: expect.stringMatching(/^\d+ms$/),
  error: null,
})

let counter = 0
/** A fresh invoice number per call (letters and digits only): tests never collide on IRNs. */
export const freshInvoiceNumber = (prefix = 'INV'): string => {
  counter += 1
  return `${prefix}${Date.now().toString(36).toUpperCase()}${counter}`
}

/** The authority's error record on its paths (CONTRACT 17), for whole-reply assertions. */
export const authorityError = (
  code: number,
  message: RegExp | string = /./,
  errors: unknown = expect.any(Array),
) => {
  const text = typeof message === 'string' ? message : expect.stringMatching(message)
  return {
    code,
    message: text,
    data: null,
    error: {
      id: expect.any(String),
      handler: expect.any(String),
      details: expect.any(String),
      public_message: text,
    },
    errors,
  }
}
