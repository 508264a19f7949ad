import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseJsonBody } from '#lib/platform/http/json-body.ts'
import { loneSurrogates } from '#lib/platform/text/well-formed.ts'

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

  describe('and the lone-surrogate check of what it parsed (which a clean text lets skip its walk)', () => {
    it.each([
      ['an escaped lone surrogate in a value', '{"a":{"b":["x\\ud800"]}}', ['a/b/0']],
      ['an escaped lone low surrogate in a key', '{"k\\udc00":1}', ['k\ufffd']],
      ['a raw lone surrogate in a value (an event body is any string)', '{"a":"\ud800x"}', ['a']],
      ['a raw lone surrogate in a key', '{"\udfff":true}', ['\ufffd']],
      ['an escaped pair split across two strings', '["\\ud83d","\\ude00"]', ['0', '1']],
    ])('finds %s', (_, text, paths) => {
      expect(loneSurrogates(parseJsonBody(text)).map((p) => p.path)).toEqual(paths)
    })

    it.each([
      ['plain text', '{"a":"b","c":[1,{"d":"e"}]}'],
      ['a raw pair', '{"smile":"\ud83d\ude00"}'],
      ['an escaped pair', '{"smile":"\\ud83d\\ude00"}'],
    ])('finds none in %s', (_, text) => {
      expect(loneSurrogates(parseJsonBody(text))).toEqual([])
    })

    it('finds what a walk of JSON.parse finds, for any text, raw or escaped', () => {
      const text16 = fc.string({
        unit: fc.oneof(
          fc.constant('\ud800'),
          fc.constant('\udc00'),
          fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        ),
      })
      const value = fc.letrec((tie) => ({
        node: fc.oneof(
          { depthSize: 'small' },
          text16,
          fc.array(tie('node'), { maxLength: 4 }),
          fc.dictionary(text16, tie('node'), { maxKeys: 4 }),
        ),
      })).node
      fc.assert(
        fc.property(value, fc.boolean(), (v, escaped) => {
          const json = JSON.stringify(v)
          // JSON.stringify escapes lone surrogates; the raw form puts them in the text as they are.
          const text = escaped
            ? json
            : json.replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, hex) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              )
          fc.pre(!text.includes('__proto__') && !text.includes('"constructor"'))
          expect(loneSurrogates(parseJsonBody(text))).toEqual(loneSurrogates(JSON.parse(text)))
        }),
        { numRuns: 500 },
      )
    })
  })
})
