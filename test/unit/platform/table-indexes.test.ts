import { describe, expect, it } from 'vitest'
import {
  type IndexDefinition,
  LISTED,
  projectionProblems,
  projects,
  tableDefinition,
} from '#lib/platform/db/table.ts'

const include = (indexName: string, count: number): IndexDefinition => ({
  indexName,
  partitionKey: `${indexName}pk`,
  sortKey: `${indexName}sk`,
  projection: { type: 'INCLUDE', attributes: Array.from({ length: count }, (_, i) => `a${i}`) },
})

describe('the table indexes (lib/platform/db/table.ts)', () => {
  it('are what DynamoDB takes: nothing for the synth to stop on', () => {
    expect(projectionProblems(tableDefinition.globalSecondaryIndexes)).toEqual([])
  })

  it('refuse what DynamoDB refuses and DynamoDB Local takes: 21 attributes an index, 101 in all, 21 indexes', () => {
    expect(projectionProblems([include('gsi1', 20)])).toEqual([])
    expect(projectionProblems([include('gsi1', 21)])).toEqual([
      'gsi1 projects 21 attributes: DynamoDB allows 20 an index (project ALL, or read the items after the index)',
    ])
    const six = Array.from({ length: 6 }, (_, i) => include(`g${i}`, 17))
    expect(projectionProblems(six)).toEqual([
      'the indexes project 102 attributes in all: DynamoDB allows 100',
    ])
    const many = Array.from({ length: 21 }, (_, i) => ({
      ...include(`g${i}`, 1),
      projection: { type: 'ALL' as const },
    }))
    expect(projectionProblems(many)).toEqual(['21 global secondary indexes: DynamoDB allows 20'])
  })

  it('hold what every listing shows, so no reader reads an item after the index', () => {
    for (const index of tableDefinition.globalSecondaryIndexes)
      for (const listing of Object.values(LISTED)) expect(projects(index.indexName, listing)).toBe(true)
  })
})
