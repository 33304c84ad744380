import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real workers, real LMDB and child processes: give slow integration tests room, never assert timings.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/support/stdoutGuard.ts'],
    // The JSON report feeds the plain `N passed, N failed` line that CI reads (scripts/ciSummary.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
  },
});
