/**
 * Subjects with (or without) the intercept preload, wired to a real drill remote the way the
 * harness wires one: a session for a fresh drill id and the CRASH_DRILL_* variables.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { DrillRemote } from '../../harness/remote/index.js';
import { interceptEnv, preloadPath } from '../../harness/preload/index.js';
import type { Cleanup } from '../support/cleanup.js';
import type { ProcIdentity } from '../../harness/observe/identity.js';
import { RawSubject } from '../fake-servers/support/raw-subject.js';
import { ensureBuilt as ensureOutputs } from '../support/ensure-built.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HARDCODED_HOST_JS = fileURLToPath(new URL('../../dist/fake-servers/hardcoded-host.js', import.meta.url));
export const HARDCODED_API = 'https://api.example.invalid';

/** The compiled preload and fake server (test/support/ensure-built.ts). */
export function ensureBuilt(): void {
  ensureOutputs([HARDCODED_HOST_JS, preloadPath()], 'hardcoded-host or the preload is');
}

/** The test runner's environment without its own NODE_OPTIONS (vitest may set some). */
export function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.CRASH_DRILL_INTERCEPT;
  return env;
}

export interface Started {
  subject: RawSubject;
  server: ProcIdentity;
  drillId: string;
  token: string;
}

/**
 * Starts `command args` as a drill subject: `intercept` lists the origins for the preload
 * (null: no preload at all).
 */
export async function startSubject(
  janitor: Cleanup,
  remote: DrillRemote,
  opts: { intercept: string[] | null; command?: string; args?: string[]; env?: NodeJS.ProcessEnv; handshake?: boolean },
): Promise<Started> {
  const drillId = `preload-test-${randomUUID()}`;
  janitor.registerRun(drillId); // an unregistered marked process looks like a crashed harness's leftover; unregistered after the test
  const { token } = remote.openSession(drillId);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    CRASH_DRILL_RUN: drillId,
    CRASH_DRILL_REMOTE_URL: remote.url,
    CRASH_DRILL_TOKEN: token,
    ...(opts.intercept ? interceptEnv(opts.intercept) : {}),
    ...opts.env,
  };
  const subject = new RawSubject(opts.command ?? process.execPath, opts.args ?? [HARDCODED_HOST_JS], env);
  const server = janitor.track(subject.pid);
  if (!server) throw new Error(`the subject exited at once; stderr:\n${subject.stderrText}`);
  if (opts.handshake !== false) await subject.handshake();
  return { subject, server, drillId, token };
}
