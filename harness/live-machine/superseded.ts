/**
 * A superseded server: the same client (an ancestor holding both sessions' stdio) started the same
 * configured entry again, and this older one has had no I/O (io-quiet.ts) between two looks while
 * the newer ran, as after Claude Code's `/mcp` reconnect, which keeps the old server's pipes open
 * (anthropics/claude-code #79740).
 */
import type { ConfigMatch } from '../mcp-clients/matcher.js';
import type { Classified } from './classify.js';
import type { EndHolder } from './stdio-ends.js';
import type { SessionClient } from './client-of.js';
import { sessionCounters } from './io-quiet.js';
import type { IoLook } from './pending.js';
import { duration } from './duration.js';
import type { StdioSession } from './stdio-sessions.js';
import type { Backend } from './types.js';

export interface Judged {
  session: StdioSession;
  c: Classified;
  client: SessionClient;
}

export interface SupersededCandidate {
  older: Judged;
  newer: StdioSession;
  starter: EndHolder;
  entry: ConfigMatch;
  /** The io look's key: older, newer and client identities. */
  key: string;
  /** The older session's counters as one string; null when they cannot be read, and why. */
  counters: string | null;
  unreadable: string | null;
}

const id = (p: { pid: number; startTime: number }) => `${p.pid}:${p.startTime}`;

/** Every attached session that a newer session of the same entry, started by the same client, may have superseded. */
export function supersededCandidates(judged: readonly Judged[], backend: Backend): SupersededCandidate[] {
  const groups = new Map<string, { starter: EndHolder; entry: ConfigMatch; sessions: Judged[] }>();
  for (const j of judged) {
    const starter = j.client.process;
    if (!starter?.ancestor || (j.c.classification !== 'attached' && j.c.classification !== 'client-stuck')) continue;
    const entries = new Map(j.session.configured.map((m) => [`${m.client}\0${m.file}\0${m.field}`, m]));
    for (const [entryKey, entry] of entries) {
      const key = `${id(starter)}\0${entryKey}`;
      const group = groups.get(key) ?? { starter, entry, sessions: [] };
      groups.set(key, group);
      group.sessions.push(j);
    }
  }
  const out: SupersededCandidate[] = [];
  for (const { starter, entry, sessions } of groups.values()) {
    if (sessions.length < 2) continue;
    const byStart = [...sessions].sort(
      (a, b) => a.session.members[0]!.startTime - b.session.members[0]!.startTime || a.session.members[0]!.pid - b.session.members[0]!.pid,
    );
    const newer = byStart[byStart.length - 1]!.session;
    for (const older of byStart.slice(0, -1)) {
      if (older.c.classification !== 'attached' || out.some((o) => o.older === older)) continue;
      const key = `${id(older.session.members[0]!)}>${id(newer.members[0]!)}@${id(starter)}`;
      out.push({ older, newer, starter, entry, key, ...sessionCounters(older.session.members, backend) });
    }
  }
  return out;
}

/** Marks each candidate superseded, or adds why it is not yet, from this look and the one kept before it. */
export function judgeSuperseded(candidates: readonly SupersededCandidate[], looks: ReadonlyMap<string, IoLook>, idleAfterMs: number, at: number): void {
  for (const k of candidates) {
    const older = k.older.session.members[0]!;
    const newer = k.newer.members[0]!;
    const started = `client ${k.starter.pid} (${k.starter.command}) started ${k.entry.client}: ${k.entry.name} again ${duration(older.elapsedMs - newer.elapsedMs)} after it: pid ${newer.pid} (start ${newer.startTime}) is its newer session`;
    const look = k.counters === null ? undefined : looks.get(k.key);
    const c = k.older.c;
    if (!look) {
      c.evidence.push(started, `its I/O counters cannot be read (${k.unreadable ?? 'not kept'}): whether it had I/O since cannot be told`);
      continue;
    }
    const idle = `${((at - look.since) / 1000).toFixed(1)} s`;
    const since = new Date(look.since).toISOString();
    if (look.previous === 'quiet' && at - look.since >= idleAfterMs) {
      c.classification = 'superseded';
      c.evidence = [
        started,
        `no I/O since: at every look since ${since} (${idle}), each after pid ${newer.pid} started, its processes' read and write counters (rchar, wchar, syscr, syscw) had moved by 8-byte event-loop wake-ups at most`,
        ...c.evidence,
      ];
    } else if (look.previous === 'quiet')
      c.evidence.push(started, `no I/O at every look since ${since} (${idle}): superseded once that is ${idleAfterMs / 1000} s (--idle-after)`);
    else
      c.evidence.push(
        started,
        look.previous === 'io'
          ? 'it read or wrote since the last look (its I/O counters moved by more than event-loop wake-ups); the counters are kept to compare at the next look'
          : 'its I/O counters are kept to compare at the next look: no I/O by then makes it superseded',
      );
  }
}
