import { defineConfig } from 'vitest/config';
import { suiteTmp } from './support/suite-tmp.js';

/**
 * The benchmarks' vitest files (`*.bench-test.ts`): tests that assert like the suite's but take
 * minutes, so they are not in the suite (vitest.config.ts includes `*.test.ts` only). `npm run
 * bench:schedule` runs them (bench/schedule-verdicts.ts).
 */
delete process.env.NODE_EXTRA_CA_CERTS;
suiteTmp();

export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/**/*.bench-test.ts'],
    globalSetup: ['./test/support/suite-tmp.ts'],
    setupFiles: ['./test/support/remove-temp-dirs.ts'],
    testTimeout: 1_800_000,
  },
});
