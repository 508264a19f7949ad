import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file gets its own table in it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Request logs are silent unless a test turns them on to inspect them.
    // EMF metrics too (lib/metrics.ts), unless a test turns them on.
    env: { LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    // Under CI also a JSON report, from which .ci/run prints its closing counts (its second pass
    // names another file with --outputFile.json).
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/vitest-report.json' },
  },
})
