import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseJsonBody } from '#lib/http/json-body.ts'

const refused = (text: string) => {
  try {
    parseJsonBody(text)
  } catch (error) {
    return (error as { statusCode?: number; message: string }).message
  }
  return 'accepted'
}

describe('the JSON body parse', () => {
  it.each([
    ['a __proto__ member', '{"__proto__":{"isAdmin":true}}'],
    ['a nested __proto__ member', '{"a":[{"b":{"__proto__":{}}}]}'],
    ['__proto__ spelled with \\u escapes', '{"\\u005f\\u005fproto\\u005f\\u005f":{"x":1}}'],
    ['a constructor with a prototype', '{"constructor":{"prototype":{"x":1}}}'],
    ['an escaped constructor with a prototype', '{"\\u0063onstructor":{"prototype":{}}}'],
  ])('refuses %s', (_, text) => {
    expect(refused(text)).toBe('Forbidden key in JSON body')
  })

  it('accepts "constructor" and "__proto__" as values, and a constructor without a prototype', () => {
    expect(parseJsonBody('{"note":"__proto__ constructor","constructor":"x"}')).toEqual({
      note: '__proto__ constructor',
      constructor: 'x',
    })
  })

  it('refuses malformed JSON', () => {
    expect(refused('{"a":')).toBe('Invalid or malformed JSON was provided')
  })

  it('gives what JSON.parse gives for any JSON without a forbidden key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value)
        fc.pre(!text.includes('__proto__') && !text.includes('"constructor"'))
        expect(parseJsonBody(text)).toEqual(JSON.parse(text))
      }),
      { numRuns: 300 },
    )
  })
})
