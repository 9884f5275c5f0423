/**
 * A fake server wired to a real drill remote, as the harness wires a subject: a session opened
 * with the drill id, and the four CRASH_DRILL_* variables in its environment.
 */
import { randomUUID } from 'node:crypto';
import type { DrillRemote, JournalEvent, RequestRecord, SessionOptions } from '../../../harness/remote/index.js';
import { CORRELATION_META_KEY } from '../../../harness/shared/protocol.js';
import { startTracked } from './drive.js';
import type { Cleanup } from '../../support/cleanup.js';
import type { ProcIdentity } from '../../../harness/observe/identity.js';
import { until } from '../../support/until.js';
import type { RawSubject } from './raw-subject.js';
import { newRunId, type FakeName } from './subjects.js';

export interface RemoteSubject {
  subject: RawSubject;
  server: ProcIdentity;
  drillId: string;
  sessionId: string;
  token: string;
}

export async function startWithRemote(
  name: FakeName,
  janitor: Cleanup,
  remote: DrillRemote,
  options: { env?: NodeJS.ProcessEnv; session?: SessionOptions } = {},
): Promise<RemoteSubject> {
  const drillId = newRunId();
  const { sessionId, token } = remote.openSession(drillId, options.session);
  const env = {
    CRASH_DRILL_REMOTE_URL: remote.url,
    CRASH_DRILL_TOKEN: token,
    CRASH_DRILL_API_KEY: remote.apiKey,
    ...options.env,
  };
  const { subject, server } = await startTracked(name, janitor, env, drillId);
  await subject.handshake();
  return { subject, server, drillId, sessionId, token };
}

/** `_meta` as the drill client sends it with the target call. */
export function correlationMeta(correlationId = `corr-${randomUUID()}`): { correlationId: string; meta: Record<string, string> } {
  return { correlationId, meta: { [CORRELATION_META_KEY]: correlationId } };
}

/** The folded requests of one drill on one route, e.g. `POST /actions`. */
export function requestsOn(remote: DrillRemote, drillId: string, route: string): RequestRecord[] {
  return remote.requests({ drillId }).filter((r) => r.route === route);
}

/** Polls the remote's journal until `predicate` holds for the drill's events. */
export async function waitForJournal(
  remote: DrillRemote,
  drillId: string,
  predicate: (events: JournalEvent[]) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  await until(what, () => predicate(remote.journal({ drillId })), timeoutMs);
}

/** The id in a tool answer such as `effect e12` or `job j3`. */
export function idFrom(text: string, prefix: 'effect' | 'job'): string {
  const match = new RegExp(`^${prefix} (\\S+)$`).exec(text);
  if (!match) throw new Error(`expected "${prefix} <id>", got "${text}"`);
  return match[1]!;
}
