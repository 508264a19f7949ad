import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, afterEach, expect } from 'vitest'
import { ASSERTION_COUNTS } from './assertion-counts-file.ts'

/**
 * Under CI, each test file adds one line to .ci/vitest-assertions.jsonl: its path, its tests and the
 * expect calls they made. A test moved from an HTTP file to a unit test must keep its assertions, and
 * a count of `expect(` in the sources would miss the ones a loop or it.each makes: this counts the
 * calls as they run. (vitest's JSON report counts tests, not assertions.)
 */
let tests = 0
let assertions = 0
afterEach(() => {
  tests += 1
  assertions += expect.getState().assertionCalls
})
afterAll(() => {
  const file = expect.getState().testPath
  mkdirSync(dirname(ASSERTION_COUNTS), { recursive: true })
  // One short line per file: appends under O_APPEND from parallel workers do not interleave.
  appendFileSync(ASSERTION_COUNTS, `${JSON.stringify({ file, tests, assertions })}\n`)
})
