/** Where the subjects under test live, and how to start one with a fresh drill id. */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { python3 } from '../../support/scenarios.js';
import { RawSubject } from './raw-subject.js';
import type { Cleanup } from '../../support/cleanup.js';
import { ensureBuilt as ensureOutputs } from '../../support/ensure-built.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DIST_FAKES = fileURLToPath(new URL('../../../dist/fake-servers/', import.meta.url));
export const PYTHON_WELL_BEHAVED = fileURLToPath(new URL('../../../fake-servers/python/well-behaved.py', import.meta.url));

export const NODE_FAKES = [
  'well-behaved',
  'ignores-eof',
  'leaks-child',
  'daemonizes',
  'stdout-noise',
  'slow-exit',
  'ignores-sigterm',
  'keyless-writer',
  'retries-without-key',
  'polls-after-loss',
  'fire-and-forget-job',
  'static-key-holder',
  'launcher-forwards-nothing',
  'launcher-forwards-signals',
  'helper-own-group',
  'helper-own-session',
  'ignores-sigterm-exits-on-eof',
  'exits-on-sigint-only',
  'exits-when-idle',
  'records-activity',
  'records-after-answer',
  'never-ends-actions',
] as const;
export type NodeFake = (typeof NODE_FAKES)[number];
export type FakeName = NodeFake | 'python/well-behaved';

/** The tool set every fake server exposes: four local ones and two that talk to the remote. */
export const FAKE_TOOLS = ['echo', 'spawn-helper', 'slow', 'subscribe', 'write', 'start-job'];

/** The compiled fake servers (test/support/ensure-built.ts). */
export function ensureBuilt(): void {
  ensureOutputs(
    NODE_FAKES.map((name) => `${DIST_FAKES}${name}.js`),
    `fake servers in ${DIST_FAKES} are`,
  );
}

export function newRunId(): string {
  return `fake-servers-test-${randomUUID()}`;
}

export function startFake(name: FakeName, janitor: Cleanup, extraEnv: NodeJS.ProcessEnv = {}, runId = newRunId()): { subject: RawSubject; runId: string } {
  // A marked process of a run nobody registered is what a crashed harness leaves behind, and
  // any drill run that starts meanwhile (another test file) would contain it as stale. The
  // janitor unregisters it after the test.
  janitor.registerRun(runId);
  const env = { ...process.env, CRASH_DRILL_RUN: runId, ...extraEnv };
  const subject =
    name === 'python/well-behaved' ? new RawSubject(python3(), [PYTHON_WELL_BEHAVED], env) : new RawSubject(process.execPath, [`${DIST_FAKES}${name}.js`], env);
  return { subject, runId };
}
