import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import LongestFirst from './test/support/longest-first.ts'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file gets its own table in it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Three files at a time on two cores (vitest's default, one fewer than the cores, is one here): a
    // test file spends most of its time waiting on DynamoDB Local and its own server (one file at a
    // time used about one core of two; npm test took 13.4 min that way), and the longest files mostly
    // wait (a DynamoDB outage, webhook host leases, CLI processes) while holding a worker.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
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
