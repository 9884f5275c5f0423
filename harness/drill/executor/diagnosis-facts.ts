/**
 * Records what a drill's diagnosis needs from /proc, at the moments it is true: the server's
 * runtime and SDK once the handshake is done, the server at the exit deadline while it still
 * runs, every live process of the drill at the snapshot, before containment changes anything.
 * The diagnosis itself is derived from the evidence alone (harness/results/diagnosis.ts), so
 * `crash-drill check` re-judges it from the log.
 */
import type { ProcIdentity } from '../../observe/index.js';
import type { Secret } from '../../util/secrets.js';
import { type ProcessFacts, processFacts } from '../../observe/index.js';
import { runtimeFacts } from '../../observe/index.js';
import type { EvidenceRecorder } from './recorder.js';

export function recordStartFacts(rec: EvidenceRecorder, server: ProcIdentity | null, secrets: readonly Secret[]): void {
  if (!server) return;
  rec.harness({ type: 'diagnosis-facts', label: 'start', processes: [], runtime: runtimeFacts(server, secrets) }, undefined, 'observer');
}

export function recordProcessFacts(
  rec: EvidenceRecorder,
  label: 'deadline' | 'snapshot',
  live: readonly ProcIdentity[],
  server: ProcIdentity | null,
  secrets: readonly Secret[],
): void {
  const isServer = (p: ProcIdentity) => server !== null && p.pid === server.pid && p.startTime === server.startTime;
  const facts = live.flatMap((p) => processFacts(p, { role: isServer(p) ? 'server' : 'other', secrets, children: [] }) ?? []);
  const withChildren: ProcessFacts[] = facts.map((f) => ({ ...f, children: facts.filter((c) => c.ppid === f.pid).map((c) => c.pid) }));
  if (withChildren.length > 0) rec.harness({ type: 'diagnosis-facts', label, processes: withChildren }, undefined, 'observer');
}
