import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { csvText, neutralisedCell } from '#lib/platform/text/csv.ts'

/** The one CSV writer (lib/platform/text/csv.ts): which cells are neutralised, and what is quoted. */

describe('neutralisedCell', () => {
  it.each([
    ['=1+1'],
    ['+1'],
    ['-1+2'],
    ['@SUM(A1)'],
    ['\t1'],
    ['\r1'],
    ['   =1+1'],
    ['\u00A0=1'],
    ['\u200B=1'],
    ['\u200C\u200D\u2060@x'],
    ['\uFEFF+1'],
    ['\u202E=1'],
    ['\n=1'],
    ['\uFF1D1'],
  ])('prefixes %j with a single quote', (cell) => {
    expect(neutralisedCell(cell)).toBe(`'${cell}`)
  })

  it.each([['Acme Ltd'], ['-12.50'], ['100.00'], ['a=b'], ['x\n=1'], [''], ['Hyphen-ated']])(
    'leaves %j as it is',
    (cell) => {
      expect(neutralisedCell(cell)).toBe(cell)
    },
  )
})

describe('csvText', () => {
  it('quotes a cell holding LF, CR, the separator or a quote, and reads back cell for cell', () => {
    const cells = ['a\nb', 'a\rb', 'a,b', 'a"b', 'plain']
    const text = csvText([cells], { columns: ['1', '2', '3', '4', '5'] })
    expect(text).toBe('1,2,3,4,5\r\n"a\nb","a\rb","a,b","a""b",plain\r\n')
    expect(parse(text, { columns: true })).toEqual([{ 1: 'a\nb', 2: 'a\rb', 3: 'a,b', 4: 'a"b', 5: 'plain' }])
  })

  it('leaves the header out when asked', () => {
    expect(csvText([['x']], { columns: ['c'], header: false })).toBe('x\r\n')
  })
})
