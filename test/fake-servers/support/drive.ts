/** The common opening of every behaviour test: start, initialize, list tools, spawn a helper. */
import type { Cleanup } from '../../support/cleanup.js';
import type { ProcIdentity } from '../../../harness/observe/identity.js';
import { readStat } from '../../../harness/observe/proc.js';
import type { RawSubject } from './raw-subject.js';
import { FAKE_TOOLS, startFake, type FakeName } from './subjects.js';

export interface Driven {
  subject: RawSubject;
  runId: string;
  server: ProcIdentity;
  helperPid: number;
  helper: ProcIdentity;
}

export async function startTracked(
  name: FakeName,
  janitor: Cleanup,
  env: NodeJS.ProcessEnv = {},
  runId?: string,
): Promise<{ subject: RawSubject; runId: string; server: ProcIdentity }> {
  const started = startFake(name, janitor, env, runId);
  const { subject } = started;
  // Every process carrying the fake's marker is ended after the test, the ones it starts that the
  // test never sees too: a launcher's real server (launcher-forwards-*), a helper's own children.
  // No sweep of another run ends them: their run is registered and live (harness/registry).
  janitor.trackDrill(started.runId);
  const server = janitor.track(subject.pid);
  if (!server) throw new Error(`${name} exited at once; stderr:\n${subject.stderrText}`);
  return { subject, runId: started.runId, server };
}

export async function startAndSpawnHelper(name: FakeName, janitor: Cleanup, env: NodeJS.ProcessEnv = {}): Promise<Driven> {
  const { subject, runId, server } = await startTracked(name, janitor, env);
  await subject.handshake();
  const tools = await subject.listToolNames();
  if ([...tools].sort().join() !== [...FAKE_TOOLS].sort().join()) throw new Error(`${name} lists ${tools.join()}`);
  const helperPid = await subject.spawnHelper();
  const helper = janitor.track(helperPid);
  if (!helper) throw new Error(`${name}: helper ${helperPid} is already gone`);
  return { subject, runId, server, helperPid, helper };
}

export function ppidOf(pid: number): number | null {
  return readStat(pid)?.ppid ?? null;
}
