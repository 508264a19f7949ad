/**
 * Where each test file's counts go under CI (test/support/assertion-count.ts writes them, the global
 * setup clears them): apart from the counter, which only a test file may load (it registers hooks).
 */
export const ASSERTION_COUNTS = '.ci/vitest-assertions.jsonl'
