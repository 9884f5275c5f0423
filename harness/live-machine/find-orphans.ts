/** `crash-drill orphans` without printing: stdio sessions classified (classify.ts, superseded.ts), named by client, ranked by reach. */
import type { ClientConfigs } from '../mcp-clients/types.js';
import { problemLine } from '../mcp-clients/types.js';
import type { ConfigMatch, ConfigMatcher } from '../mcp-clients/matcher.js';
import { classify, ORPHAN_CLASSES, ORPHANED, type OrphanClass } from './classify.js';
import { clientOf, type SessionClient } from './client-of.js';
import { findRealServer, isLauncher, type ChainProcess } from './observe.js';
import type { ServerPattern } from './patterns.js';
import { quietBetween } from './io-quiet.js';
import { recordLooks } from './pending.js';
import { byReach, readReach, type Reach } from './reach.js';
import type { EndHolder, StdioEnd } from './stdio-ends.js';
import { scanSessions, type StdioSession } from './stdio-sessions.js';
import { judgeSuperseded, supersededCandidates, type Judged } from './superseded.js';
import type { Backend, BackendName, ProcessEntry } from './types.js';
import { descendantsOf } from '../containment/process-table.js';

export interface OrphanEntry {
  pid: number;
  startTime: number;
  user: string;
  ppid: number;
  pgid: number;
  sid: number | null;
  state: string;
  startedAt: string;
  elapsedMs: number;
  command: string;
  classification: OrphanClass;
  /** Why it is classified so. */
  evidence: string[];
  /** Why it counts as an MCP server (patterns, drill marker). */
  serverEvidence: string[];
  /** The client configuration entries it matches (with the pid that matched): ranks above a pattern. */
  configured: (ConfigMatch & { pid: number })[];
  /** Which client it belongs to: by configuration, and the live process that is its client. */
  client: SessionClient;
  /** The real server below the launchers (the entry itself when it is no launcher). */
  server: { pid: number; startTime: number; command: string };
  /** The session's processes, top first: the launcher chain and the server. */
  chain: { pid: number; startTime: number; command: string; launcher: boolean }[];
  stdio: StdioEnd[];
  clients: EndHolder[];
  reach: Reach;
}

export interface OrphanReport {
  backend: BackendName;
  takenAt: string;
  durationMs: number;
  /** Entries shown: gone, stuck, detached and superseded (and, with `all`, attached and unresolved), by reach. */
  entries: OrphanEntry[];
  counts: Record<OrphanClass, number>;
  /** Matching processes whose stdio this user cannot read. */
  unreadable: { pid: number; user: string; command: string }[];
  /** With `all`: processes on piped stdio that start a configured program but match no entry and no pattern, and why. */
  uncounted: { pid: number; startTime: number; command: string; why: string }[];
  /** The client configurations read: files, how many stdio entries, and one line per problem. */
  clientConfigs: { files: { client: string; file: string }[]; entries: number; problems: string[] };
  blindSpots: string[];
}

export interface FindOptions {
  patterns: readonly ServerPattern[];
  markers: boolean;
  stuckAfterMs: number;
  /** How long a server its client started again must show no I/O, over two looks or more, to be superseded (default 30 s). */
  idleAfterMs?: number;
  all: boolean;
  exclude?: ReadonlySet<number>;
  /** The machine's MCP client configurations and their matcher (harness/mcp-clients). */
  configs?: { matcher: ConfigMatcher; loaded: ClientConfigs };
}

function chainOf(session: StdioSession): ProcessEntry[] {
  return session.members;
}

function realServer(session: StdioSession, table: readonly ProcessEntry[]): ProcessEntry {
  const top = session.members[0]!;
  const chain: ChainProcess[] = table.map((p) => ({ pid: p.pid, startTime: p.startTime, ppid: p.ppid, cmdline: p.argv ?? p.command.split(' ') }));
  const objects = new Map(session.members.map((m) => [m.pid, [session.stdin.object, session.stdout.object]] as const));
  const id = findRealServer(chain, top, (pid, fd) => objects.get(pid)?.[fd] ?? null);
  return session.members.find((m) => m.pid === id.pid) ?? top;
}

/** With --all, piped-stdio processes nothing counted whose client is gone, with why, so an operator sees what `orphans` leaves out. */
function uncountedSessions(backend: Backend, scan: ReturnType<typeof scanSessions>): StdioSession[] {
  const taken = new Set(scan.sessions.flatMap((s) => s.members.map((m) => m.pid)));
  const byKey = new Map<string, StdioSession>();
  for (const p of scan.uncounted) {
    if (taken.has(p.pid)) continue;
    const fds = backend.stdio(p.pid);
    const d0 = fds?.find((d) => d.fd === 0);
    const d1 = fds?.find((d) => d.fd === 1);
    if (!d0 || !d1 || !['pipe', 'socket'].includes(d0.kind) || !['pipe', 'socket'].includes(d1.kind)) continue;
    const key = `${d0.object}|${d1.object}`;
    const had = byKey.get(key);
    if (had) had.members.push(p);
    else byKey.set(key, { key, stdin: d0, stdout: d1, members: [p], evidence: [], configured: [], marker: null });
  }
  for (const s of byKey.values()) s.members.sort((a, b) => a.startTime - b.startTime || a.pid - b.pid);
  return [...byKey.values()];
}

function whyNotCounted(
  candidates: StdioSession[],
  scan: ReturnType<typeof scanSessions>,
  holders: ReturnType<Backend['holders']>,
  matcher: ConfigMatcher | undefined,
): OrphanReport['uncounted'] {
  const out: OrphanReport['uncounted'] = [];
  for (const s of candidates) {
    if (classify(s, scan.table, scan.byPid, holders).classification !== 'client-gone') continue;
    const near = s.members.map((m) => matcher?.nearMiss(m.argv ?? m.command.split(' ')) ?? null).find((n) => n !== null);
    const top = s.members[0]!;
    out.push({
      pid: top.pid,
      startTime: top.startTime,
      command: top.command,
      why: `its client is gone, but it matches no client configuration entry${near ? ` (${near})` : ''} and no server pattern, and carries no drill marker: not counted as an MCP server`,
    });
  }
  return out;
}

export function findOrphans(backend: Backend, opts: FindOptions): OrphanReport {
  const t0 = performance.now();
  const takenAt = new Date().toISOString();
  const scan = scanSessions(backend, { ...opts, configs: opts.configs?.matcher });
  const candidates = opts.all ? uncountedSessions(backend, scan) : [];
  const wanted = new Set([...scan.sessions, ...candidates].flatMap((s) => [s.stdin.object, s.stdout.object]));
  const holders = wanted.size > 0 ? backend.holders(wanted) : { byObject: new Map(), peers: new Map(), unread: new Map(), peersUnavailable: null };
  const classified: Judged[] = scan.sessions.map((session) => {
    const c = classify(session, scan.table, scan.byPid, holders);
    return { session, c, client: clientOf(session, c.ends, c.clients, scan.byPid) };
  });
  const superseded = supersededCandidates(classified, backend);

  const now = Date.now();
  const looks = recordLooks(
    {
      unread: new Map(classified.flatMap(({ c }) => (c.unread ? [[c.unread.key, c.unread.bytes] as const] : []))),
      io: new Map(superseded.flatMap((k) => (k.counters === null ? [] : [[k.key, k.counters] as const]))),
      quiet: quietBetween,
    },
    now,
  );
  judgeSuperseded(superseded, looks.io, opts.idleAfterMs ?? 30_000, now);
  for (const { c } of classified) {
    if (c.classification !== 'attached' || !c.unread) continue;
    const look = looks.unread.get(c.unread.key)!;
    const forMs = now - look.since;
    const line = `${c.unread.bytes} bytes of its output are unread by client ${c.unread.reader}, at every look since ${new Date(look.since).toISOString()} (${(forMs / 1000).toFixed(1)} s)`;
    if (forMs >= opts.stuckAfterMs) {
      c.classification = 'client-stuck';
      c.evidence = [line, ...c.evidence];
    } else c.evidence.push(line);
  }

  const counts = Object.fromEntries(ORPHAN_CLASSES.map((k) => [k, 0])) as Record<OrphanClass, number>;
  const entries: OrphanEntry[] = [];
  for (const { session, c, client } of classified) {
    counts[c.classification]++;
    const shown = ORPHANED.has(c.classification) || opts.all;
    if (!shown) continue;
    const top = session.members[0]!;
    const server = realServer(session, scan.table);
    const memberPids = session.members.map((m) => m.pid);
    const below = [...descendantsOf(memberPids, scan.table)].filter((pid) => !memberPids.includes(pid));
    entries.push({
      pid: top.pid,
      startTime: top.startTime,
      user: top.user,
      ppid: top.ppid,
      pgid: top.pgid,
      sid: top.sid,
      state: top.state,
      startedAt: top.startedAt,
      elapsedMs: top.elapsedMs,
      command: top.command,
      classification: c.classification,
      evidence: c.evidence,
      serverEvidence: session.evidence,
      configured: session.configured,
      client,
      server: { pid: server.pid, startTime: server.startTime, command: server.command },
      chain: chainOf(session).map((m) => ({ pid: m.pid, startTime: m.startTime, command: m.command, launcher: isLauncher(m.argv ?? m.command.split(' ')) })),
      stdio: c.ends,
      clients: c.clients,
      reach: readReach(backend, [...memberPids, ...below], below.length, top.elapsedMs),
    });
  }
  const rank = (e: OrphanEntry) => ORPHAN_CLASSES.indexOf(e.classification);
  // A match by configuration ranks above a match by pattern; then by what it can reach.
  const byConfig = (e: OrphanEntry) => (e.configured.length > 0 ? 0 : 1);
  entries.sort((a, b) => byConfig(a) - byConfig(b) || byReach(a.reach, b.reach) || rank(a) - rank(b) || a.pid - b.pid);
  const uncounted = opts.all ? whyNotCounted(candidates, scan, holders, opts.configs?.matcher) : [];
  const blindSpots = [...backend.blindSpots];
  if (holders.peersUnavailable) blindSpots.push(holders.peersUnavailable);
  return {
    backend: backend.name,
    takenAt,
    durationMs: Math.round(performance.now() - t0),
    entries,
    counts,
    unreadable: scan.unreadable.map((p) => ({ pid: p.pid, user: p.user, command: p.command })),
    uncounted,
    clientConfigs: {
      files: opts.configs?.loaded.files ?? [],
      entries: opts.configs?.loaded.servers.length ?? 0,
      problems: (opts.configs?.loaded.problems ?? []).map(problemLine),
    },
    blindSpots,
  };
}
