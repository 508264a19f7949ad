import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file gets its own table in it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // At least two files at a time: vitest's default is one fewer than the cores, which on a 2-core
    // machine is one, and a test file spends most of its time waiting on DynamoDB Local and its own
    // server (one file at a time used about one core of two; npm test took 13.4 min that way).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Request logs are silent unless a test turns them on to inspect them.
    // EMF metrics too (lib/platform/metrics.ts), unless a test turns them on.
    env: { LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    // Under CI also a JSON report, from which .ci/run prints its closing counts (its second pass
    // names another file with --outputFile.json).
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    // And the expect calls of each file (test/support/assertion-count.ts).
    setupFiles: process.env.CI ? ['test/support/assertion-count.ts'] : [],
    outputFile: { json: '.ci/vitest-report.json' },
  },
})
