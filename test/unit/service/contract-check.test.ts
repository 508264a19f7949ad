import { describe, expect, it } from 'vitest'
import { checkErrorCodes, checkReply } from '../../support/contract.ts'

/** The check every HTTP test's replies go through: it must refuse what the document does not describe. */
const json = (status: number, body: unknown) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json' }),
  body,
  text: JSON.stringify(body),
})
const firsError = (status: string) => ({
  timestamp: '2026-11-21T10:15:30.000Z',
  message: 'x',
  details: 'x',
  status,
  errors: [{ path: '', code: 'SIGNATURE_MISMATCH', message: 'x' }],
})

describe('the contract check of test replies', () => {
  it('accepts a reply the document describes', () => {
    expect(() =>
      checkReply(
        'POST',
        'http://h/api/v1/si/generate-irn',
        json(200, { code: 200, irn: 'INV001-94ND90NR-20261121' }),
      ),
    ).not.toThrow()
    expect(() =>
      checkReply(
        'POST',
        'http://h/api/v2/si/generate-irn',
        json(401, { code: 401, ...firsError('401 UNAUTHORIZED') }),
      ),
    ).not.toThrow()
  })

  it('refuses an error reply with no code, or a code the error catalogue lacks (CONTRACT 20)', () => {
    const url = 'http://h/api/v2/si/generate-irn'
    // The schema also wants errors non-empty: the code check says why, whichever finds it first.
    expect(() =>
      checkReply('POST', url, json(401, { code: 401, ...firsError('401 UNAUTHORIZED'), errors: [] })),
    ).toThrow()
    const stranger = { path: '', code: 'NOT_A_CATALOGUED_CODE', message: 'x' }
    // The document's ErrorCode enum refuses it; the catalogue check does on its own too.
    expect(() =>
      checkReply('POST', url, json(401, { code: 401, ...firsError('401 UNAUTHORIZED'), errors: [stranger] })),
    ).toThrow()
    expect(() => checkErrorCodes('here', { status: 401, body: { errors: [stranger] } })).toThrow(
      /NOT_A_CATALOGUED_CODE/,
    )
    expect(() => checkErrorCodes('here', { status: 404, body: { status: 404, message: 'x' } })).toThrow(
      /without a code/,
    )
    // zod's own codes are not the catalogue's, nor in a warning.
    const zodCode = { path: 'irn', code: 'invalid_format', message: 'x' }
    expect(() => checkErrorCodes('here', { status: 400, body: { error: { errors: [zodCode] } } })).toThrow(
      /invalid_format/,
    )
    expect(() => checkErrorCodes('here', { status: 200, body: { warnings: [zodCode] } })).toThrow(
      /invalid_format/,
    )
    expect(() =>
      checkErrorCodes('here', {
        status: 403,
        body: { errors: [{ path: '', code: 'ROLE_FORBIDDEN', message: 'x' }] },
      }),
    ).not.toThrow()
    // Areas B and C: responseCode.
    const bank = (responseCode: string) =>
      json(401, {
        responseCode,
        responseMessage: 'x',
        responseStatus: 'FAILED',
        iso20022: { status: 'RJCT', reason: 'DS0B' },
        traceId: '6f1c0b2e-8a1d-4c1e-9b1a-2f3e4d5c6b7a',
        timestamp: '2026-11-21T10:15:30.000Z',
      })
    expect(() => checkReply('POST', 'http://h/api/v1/transactions/transfer', bank('91'))).not.toThrow()
    expect(() => checkReply('POST', 'http://h/api/v1/transactions/transfer', bank('77'))).toThrow()
  })

  it('refuses a status the operation does not list', () => {
    expect(() => checkReply('POST', 'http://h/api/v1/si/generate-irn', json(418, {}))).toThrow(/lists no 418/)
  })

  it('refuses a body that does not match the status schema', () => {
    expect(() => checkReply('POST', 'http://h/api/v1/si/generate-irn', json(200, { irn: 42 }))).toThrow(
      /does not match/,
    )
    // An Area B error record where Area A's is due.
    expect(() =>
      checkReply(
        'POST',
        'http://h/api/v1/si/generate-irn',
        json(400, { responseCode: '30', responseMessage: 'x', responseStatus: 'FAILED' }),
      ),
    ).toThrow(/does not match/)
  })

  it('refuses a body where the document says none, and a media type it does not give', () => {
    const notModified = { status: 304, headers: new Headers(), body: { x: 1 }, text: '{"x":1}' }
    expect(() => checkReply('GET', 'http://h/api/v1/resource/states', notModified)).toThrow(/no body/)
    const html = { status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '', text: '<p>' }
    expect(() => checkReply('GET', 'http://h/api/v1/resource/states', html)).toThrow(/text\/html/)
  })

  it('takes a request to no route only as a 404 or 405 in an area error record', () => {
    expect(() =>
      checkReply('GET', 'http://h/api/v1/nowhere', json(404, firsError('404 NOT_FOUND'))),
    ).not.toThrow()
    expect(() => checkReply('GET', 'http://h/api/v1/nowhere', json(200, { ok: true }))).toThrow(
      /not a route of the document/,
    )
  })
})
