import { defineConfig } from 'vitest/config';

/**
 * Two groups: every test first, then test/last/ on its own, so the leftover checks there
 * (an interrupted run, a killed harness, and "no drill process remains after the whole suite")
 * see no drill of another test file in flight.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // The run ends with what was skipped and why (test/support/skipped-reporter.ts).
    reporters: ['default', './test/support/skipped-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'harness', include: ['test/**/*.test.ts'], exclude: ['test/last/**'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'last', include: ['test/last/**/*.test.ts'], sequence: { groupOrder: 1 } } },
    ],
  },
});
