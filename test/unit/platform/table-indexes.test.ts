import { describe, expect, it } from 'vitest'
import {
  createTableInput,
  indexesFor,
  LISTED,
  projects,
  REPLACED_INDEXES,
  tableDefinition,
} from '#lib/platform/db/table.ts'

describe('the table indexes (lib/platform/db/table.ts)', () => {
  it('project at most 100 non-key attributes in all, as DynamoDB allows, and never ALL', () => {
    const projected = tableDefinition.globalSecondaryIndexes.map((index) => {
      expect(index.projection.type).toBe('INCLUDE')
      return index.projection.type === 'INCLUDE' ? index.projection.attributes.length : 1000
    })
    expect(projected.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100)
  })

  it('project what each listing they serve shows, so those readers read no item after the index', () => {
    const served = {
      gsi1k: [
        LISTED.invoiceSummary,
        LISTED.historyRow,
        LISTED.event,
        LISTED.inboxEntry,
        LISTED.delivery,
        LISTED.partyName,
        LISTED.apiClientSystem,
      ],
      gsi2k: [LISTED.invoiceSummary, LISTED.historyBound, LISTED.event, LISTED.deliveryDue],
      gsi3k: [LISTED.invoiceSummary, LISTED.historyReferenceRow],
    } as const
    for (const [index, listings] of Object.entries(served))
      for (const listing of listings) expect(projects(index as keyof typeof served, listing)).toBe(true)
    // A party's fields are not projected: a filtered party search reads the items after the index.
    expect(projects('gsi1k', ['email', 'postal_address'])).toBe(false)
  })

  it('keeps the replaced indexes on the same keys, so a stage can hold both while it upgrades', () => {
    for (const [i, old] of REPLACED_INDEXES.entries()) {
      const now = tableDefinition.globalSecondaryIndexes[i]!
      expect([old.partitionKey, old.sortKey]).toEqual([now.partitionKey, now.sortKey])
      expect(old.projection).toEqual({ type: 'ALL' })
    }
    const both = createTableInput('t', indexesFor(['gsi1', 'gsi2', 'gsi3', 'gsi1k', 'gsi2k', 'gsi3k']))
    expect(both.GlobalSecondaryIndexes.map((i) => i.IndexName)).toEqual([
      'gsi1',
      'gsi2',
      'gsi3',
      'gsi1k',
      'gsi2k',
      'gsi3k',
    ])
    expect(both.AttributeDefinitions).toHaveLength(8)
    expect(() => indexesFor(['gsi9'])).toThrow(/No index gsi9/)
  })
})
