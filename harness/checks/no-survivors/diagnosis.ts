/**
 * Why processes outlived the drill: per survivor, who started it and when relative to the loss,
 * whether it left the server's group or session or was re-parented, what it holds, and the fix.
 * The server's own survival is exit-on-eof's (harness/checks/exit-on-eof/diagnosis.ts). Pure.
 */
import { argvOf, serverExitOf, serverOf } from '../../evidence/queries.js';
import { eventsOf, firstOf, type DrillEvidence, type SurvivorRow } from '../../evidence/types.js';
import { sdkCase, sdkFinding } from '../exit-on-eof/sdk.js';
import type { Cause } from '../types.js';
import { factsLines, serverStayedUp } from '../exit-on-eof/diagnosis.js';

function when(ms: number): string {
  return ms < 0 ? `${-ms} ms before the client was lost` : `${ms} ms after the client was lost`;
}

function origin(evidence: DrillEvidence, row: SurvivorRow, serverPid: number): { line: string; byServer: boolean } {
  const born = eventsOf(evidence, 'process-new').find((p) => p.pid === row.pid && p.startTime === row.startTime);
  const lost = firstOf(evidence, 'client-lost');
  // Its own start time, not when the observer first saw it: under load a child started before the loss may be seen after it.
  const at = born && lost ? `, ${when(Math.round((born.startedAt ?? born.t) - lost.t))}` : '';
  if (!born) return { line: `pid ${row.pid}: first seen at the snapshot`, byServer: false };
  if (born.ppid === serverPid) return { line: `pid ${row.pid} was started by the server (pid ${serverPid})${at}`, byServer: true };
  const parent = eventsOf(evidence, 'process-new').find((p) => p.pid === born.ppid);
  if (parent)
    return {
      line: `pid ${row.pid} was started by pid ${parent.pid} (${argvOf(evidence, parent).join(' ').slice(0, 60)})${at}`,
      byServer: parent.ppid === serverPid,
    };
  const holder = eventsOf(evidence, 'holder').some((h) => h.pid === born.ppid);
  return {
    line: holder
      ? `pid ${row.pid} was first seen already re-parented to the drill's subreaper (its parent had exited: a double fork)${at}`
      : `pid ${row.pid} was first seen with parent ${born.ppid}${at}`,
    byServer: false,
  };
}

export function survivorsCause(evidence: DrillEvidence): Cause | null {
  const snapshot = firstOf(evidence, 'snapshot');
  const server = serverOf(evidence);
  if (!snapshot || !server) return null;
  const own = snapshot.survivors.filter((s) => s.pid === server.pid && (server.startTime === null || s.startTime === server.startTime));
  const others = snapshot.survivors.filter((s) => !own.includes(s));
  if (others.length === 0) {
    if (own.length === 0) return null;
    const stayed = serverStayedUp(evidence);
    return { ...stayed, cause: `the server itself outlived its client: ${stayed.cause}` };
  }
  const facts = eventsOf(evidence, 'diagnosis-facts').find((e) => e.label === 'snapshot')?.processes ?? [];
  // Gone by the snapshot: a server the snapshot lists survived, however containment ended it later.
  const serverGone = own.length === 0 && serverExitOf(evidence) !== null;
  const serverRow = eventsOf(evidence, 'process-new').find((p) => p.pid === server.pid);
  const observed: string[] = [];
  let daemons = 0;
  let children = 0;
  for (const row of others) {
    const { line } = origin(evidence, row, server.pid);
    const session =
      row.sid === row.pid
        ? 'leads a session of its own (setsid: a daemon)'
        : row.pgid === row.pid
          ? 'leads a process group of its own'
          : `in process group ${row.pgid}`;
    const reparented = eventsOf(evidence, 'process-reparented').some((r) => r.pid === row.pid && r.startTime === row.startTime);
    if (row.sid === row.pid) daemons++;
    else children++;
    observed.push(`${line}: ${row.cmdline.join(' ').slice(0, 80)}; ${session}${reparented ? '; its parent died and it was re-parented' : ''}`);
    const f = facts.find((p) => p.pid === row.pid && p.startTime === row.startTime);
    if (f)
      observed.push(
        ...factsLines(f, 'snapshot')
          .slice(1)
          .map((l) => `  pid ${row.pid}: ${l}`),
      );
  }
  observed.push(serverGone ? `the server (pid ${server.pid}) had exited` : `the server (pid ${server.pid}) was still running at the snapshot`);
  if (serverRow?.pgid !== undefined) observed.push(`the server's process group: ${serverRow.pgid}`);
  const sdk = sdkFinding(evidence);
  observed.push(`SDK: ${sdk.line}`);
  const python = sdk.runtime === 'python';
  const what = `${others.length} process${others.length === 1 ? '' : 'es'} the server started outlived ${serverGone ? 'it' : 'its client'}`;
  const cause =
    daemons > 0
      ? `${what}: ${daemons} in a session of ${daemons === 1 ? 'its' : 'their'} own (a daemon, beyond the client's process-group kill), ${children} in the drill's groups`
      : `${what}: ${serverGone ? 'the server exited on EOF without ending its child' : 'its child lives on beside it'}`;
  const fix =
    daemons > 0
      ? 'a tool starts a daemon (setsid, a session of its own) that nothing ends: do not detach it; if it must outlive a call, keep its pid and stop it when stdin ends'
      : python
        ? 'the subprocess.Popen child is never ended: keep the Popen and terminate() it (then wait with a timeout) when run() returns or in the lifespan cleanup'
        : sdk.runtime === 'node'
          ? "the server exits without ending its child: keep the ChildProcess and kill it on stdin 'end' and on 'exit' (or spawn it in a group and signal the group)"
          : sdk.facts
            ? `the server ${serverGone ? 'exits' : 'lives on'} without ending its child: ${sdk.facts.fix.child}`
            : 'the server exits without ending its child: end the children it starts (or their process group) when stdin ends, before it exits';
  return { cause, observed, sdk: sdkCase(sdk, 'child').known ?? sdk.known, fix };
}
