import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { leftToPrivateCheckout } from './test/support/private-checkout.js';
import { suiteTmp } from './test/support/suite-tmp.js';

/**
 * No process the suite starts makes a TLS connection but to the drill remote, whose run CA the
 * drill names itself (NODE_EXTRA_CA_CERTS=<the run's ca.pem>, harness/remote/tls/). Where
 * NODE_EXTRA_CA_CERTS is set (this project's machines set it to the system bundle, for the
 * registry's proxy), every Node start parses each certificate in it before running a line:
 * 127 against 74 ms of CPU for `node -e 0` here. The suite starts thousands of Node processes
 * (fake servers, their helpers, drill clients, CLI runs), so its workers, and everything they
 * start, go without it. npm ci, which does talk TLS, ran before and keeps it.
 */
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * Every temp folder of the suite lands in one folder of its own (TMPDIR, inherited by the workers
 * and everything they start), which test/final/ checks is empty at the end and the global
 * teardown removes (test/support/suite-tmp.ts).
 */
suiteTmp();

/**
 * The folder whose flock(2) keeps the unprivileged floor case to one run at a time, this suite's
 * or the private checkout's nested one (test/support/exclusive.ts): the outermost suite's temp
 * folder, which a nested suite inherits.
 */
process.env.CRASH_DRILL_FLOOR_LOCK ??= process.env.TMPDIR;

/** The end-to-end tests, by file name: `*.e2e.test.ts` (real drills, the real CLI, a real bundler build) and `*.browser.test.ts` (Chromium). */
const E2E = ['test/**/*.e2e.test.ts', 'test/**/*.browser.test.ts'];

/**
 * The unprivileged group's end-to-end files, where test/unprivileged/private-checkout.e2e.test.ts
 * runs them from a private copy of this checkout: they run there, once (test/support/private-checkout.ts).
 */
const NESTED = leftToPrivateCheckout(process.argv, (file) => /\.(e2e|browser)\.test\.ts$/.test(file));

/**
 * The files that take longest, longest first: started early they overlap with everything else
 * instead of running alone at the end. On a fresh clone vitest has no timings from an earlier
 * run and would start the largest files first, which are not these.
 */

const LONGEST = [
  'test/unprivileged/private-checkout.e2e.test.ts',
  'test/python-sdk/matrix.e2e.test.ts',
  'test/java-sdk/matrix.e2e.test.ts',
  'test/go-sdk/matrix.e2e.test.ts',
  'test/client-profiles/profile-matrix.e2e.test.ts',
  'test/rust-sdk/matrix.e2e.test.ts',
  'test/unprivileged/unprivileged.e2e.test.ts',
  'test/results/diagnosis.e2e.test.ts',
  'test/run/runs-apart.e2e.test.ts',
  'test/drill/matrix.e2e.test.ts',
  'test/drill/remote-matrix.e2e.test.ts',
  'test/containers/matrix.e2e.test.ts',
  'test/cli/init-first-run.e2e.test.ts',
  'test/real/real-servers.e2e.test.ts',
  'test/expectation/expectation.e2e.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i === -1 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: vitest's own order holds within each rank.
    return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

/**
 * Groups: every test first, then test/last/ on its own, so the leftover checks there
 * (an interrupted run, a killed harness, and "no drill process remains after the whole suite")
 * see no drill of another test file in flight.
 *
 * As many test files at a time as the machine has cores, two at least and four at most. Two on
 * 2 cores: a file's drills wait as well as compute (deadlines, exits, the remote), and vitest's
 * default there is one file at a time; on 2 cores the suite is CPU-bound, so more than two do
 * not shorten it (docs/measurements.md). Four at most: the most the suite has been run with, and
 * passed, here (`--maxWorkers=4` on 2 cores, every file beside three others). Drills of different
 * files may run side by side: each harness sweeps and contains only its own runs
 * (harness/registry/runs.ts).
 */
const WORKERS = Math.min(4, Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    // The run ends with what was skipped and why (test/support/skipped-reporter.ts).
    reporters: ['default', './test/support/skipped-reporter.ts'],
    globalSetup: ['./test/support/suite-tmp.ts'],
    // Each test file removes the temp folders tempDir() made for it (test/support/temp-dir.ts).
    setupFiles: ['./test/support/remove-temp-dirs.ts', './test/support/file-cpu.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // One module graph per worker (isolate: false): the harness and vitest load once per worker,
      // not once per file, which was about a sixth of the suite's CPU. No test file keeps state
      // of its own past its end (the ones that set an environment variable or the working
      // folder put it back), and the harness keeps none across runs but caches of facts of the
      // machine (perl's path, cgroup support).
      {
        extends: true,
        test: {
          name: 'unit',
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...E2E, 'test/last/**', 'test/final/**'],
          sequence: { groupOrder: 0 },
        },
      },
      // The end-to-end half, chosen by its file names: what runs real drills, the real CLI or a
      // browser. In the same group as the unit half, so the two overlap (npm run test:unit runs
      // the unit half alone).
      {
        extends: true,
        test: { name: 'e2e', isolate: false, include: E2E, exclude: ['test/last/**', 'test/final/**', ...NESTED], sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'last', include: ['test/last/**/*.test.ts'], sequence: { groupOrder: 1 } } },
      // After everything: the files the suite left behind (test/final/no-files-left.test.ts).
      { extends: true, test: { name: 'final', include: ['test/final/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
