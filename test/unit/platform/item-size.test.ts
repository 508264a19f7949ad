import { describe, expect, it } from 'vitest'
import { BadRequest } from '#lib/platform/errors.ts'
import { assertItemFits, MAX_ITEM_BYTES, valueSize } from '#lib/platform/db/item-size.ts'

/** CONTRACT 18: every item is sized before it is written; over DynamoDB's 400 KB is a 400 naming the field. */
describe('the item size bound', () => {
  it('counts names and values in UTF-8 bytes, as DynamoDB does', () => {
    expect(valueSize({ a: 'xy' })).toBe(3 + 1 + 1 + 2)
    expect(valueSize('é')).toBe(2)
    expect(valueSize(new Uint8Array(10))).toBe(10)
  })

  it('passes an item at the limit and refuses one over it, naming its largest field', () => {
    expect(() => assertItemFits({ pk: 'P', name: 'x'.repeat(1000) }, 'party')).not.toThrow()
    const item = { pk: 'P', party: { tin: 'T', postal_address: { street_name: 'x'.repeat(MAX_ITEM_BYTES) } } }
    try {
      assertItemFits(item, 'party')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(BadRequest)
      expect((error as BadRequest).problems).toEqual([
        expect.objectContaining({ path: 'party/postal_address/street_name', code: 'NG-SC-04' }),
      ])
    }
  })
})
