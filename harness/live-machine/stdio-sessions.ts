/**
 * MCP stdio sessions: the processes sharing one stdin and one stdout object, so a launcher chain
 * (`npm exec` -> `sh -c` -> `node`) is one session, and the same command run twice is two.
 */
import { selfAndAncestors } from '../containment/process-table.js';
import type { ConfigMatch, ConfigMatcher } from '../mcp-clients/matcher.js';
import { DRILL_ENV, isLauncher } from './observe.js';
import { matchEvidence, type ServerPattern } from './patterns.js';
import type { Backend, Descriptor, ProcessEntry } from './types.js';

export interface StdioSession {
  /** `stdin object|stdout object`. */
  key: string;
  stdin: Descriptor;
  stdout: Descriptor;
  /** Members, top (the one whose parent is not a member) first, then by start. */
  members: ProcessEntry[];
  /** Why this counts as an MCP server: matched patterns and drill markers. */
  evidence: string[];
  /** The client configuration entries its processes match: the strongest evidence, listed first. */
  configured: (ConfigMatch & { pid: number })[];
  marker: string | null;
}

export interface StdioSessionScan {
  table: ProcessEntry[];
  byPid: Map<number, ProcessEntry>;
  sessions: StdioSession[];
  /** Processes that matched but whose stdio could not be read (another user's, without root). */
  unreadable: ProcessEntry[];
  /** Live processes this scan did not count (no entry, no pattern, no marker). */
  uncounted: ProcessEntry[];
}

export interface StdioSessionOptions {
  patterns: readonly ServerPattern[];
  /** Count a drill marker (CRASH_DRILL_RUN) as evidence. */
  markers: boolean;
  /** Processes never to report: this command and its ancestors. */
  exclude: ReadonlySet<number>;
  /** The entries of the machine's MCP client configurations (harness/mcp-clients). */
  configs?: ConfigMatcher;
}

const STDIO_KINDS = new Set(['pipe', 'socket']);

/** The pids of this process and its ancestors: never candidates, never contained. */
export function scanSessions(backend: Backend, opts: Omit<StdioSessionOptions, 'exclude'> & { exclude?: ReadonlySet<number> }): StdioSessionScan {
  const table = backend.processes();
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const exclude = opts.exclude ?? selfAndAncestors(byPid);
  const live = table.filter((p) => p.state !== 'Z' && !exclude.has(p.pid));

  const evidence = new Map<number, string[]>();
  const configured = new Map<number, ConfigMatch[]>();
  for (const p of live) {
    const matched = matchEvidence(p.command, opts.patterns);
    if (matched.length > 0) evidence.set(p.pid, matched);
    const entries = opts.configs?.matchProcess(p, backend.cwd?.bind(backend)) ?? [];
    if (entries.length === 0) continue;
    configured.set(p.pid, entries);
    if (!evidence.has(p.pid)) evidence.set(p.pid, []);
  }
  const markers = opts.markers
    ? backend.environValues(
        live.filter((p) => !evidence.has(p.pid)).map((p) => p.pid),
        DRILL_ENV,
      )
    : new Map<number, string>();
  if (opts.markers) for (const [pid, value] of backend.environValues([...evidence.keys()], DRILL_ENV)) markers.set(pid, value);
  for (const [pid, value] of markers) evidence.set(pid, [...(evidence.get(pid) ?? []), `carries the drill marker ${DRILL_ENV}=${value}`]);

  const stdioCache = new Map<number, Descriptor[] | null>();
  const stdioOf = (pid: number) => {
    if (!stdioCache.has(pid)) stdioCache.set(pid, backend.stdio(pid));
    return stdioCache.get(pid)!;
  };
  const keyOf = (pid: number): string | null => {
    const fds = stdioOf(pid);
    const d0 = fds?.find((d) => d.fd === 0);
    const d1 = fds?.find((d) => d.fd === 1);
    return d0 && d1 && STDIO_KINDS.has(d0.kind) && STDIO_KINDS.has(d1.kind) ? `${d0.object}|${d1.object}` : null;
  };

  const groups = new Map<string, Set<number>>();
  const unreadable: ProcessEntry[] = [];
  for (const pid of evidence.keys()) {
    if (stdioOf(pid) === null) {
      unreadable.push(byPid.get(pid)!);
      continue;
    }
    const key = keyOf(pid);
    if (key === null) continue;
    const group = groups.get(key) ?? new Set<number>();
    groups.set(key, group);
    group.add(pid);
    // Up the chain while the parent shares the stdio: launchers whose own command matched nothing.
    for (
      let parent = byPid.get(pid)?.ppid;
      parent !== undefined && parent > 1 && !exclude.has(parent) && !group.has(parent);
      parent = byPid.get(parent)?.ppid
    ) {
      if (keyOf(parent) !== key) break;
      group.add(parent);
    }
  }

  // Down the chain from a launcher while its child shares the stdio: an entry matched on
  // `npm exec` (its title) has `sh -c` and the node server below it, one session.
  const children = new Map<number, ProcessEntry[]>();
  for (const p of live) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  for (const [key, group] of groups) {
    const todo = [...group].filter((pid) => isLauncher(byPid.get(pid)?.argv ?? byPid.get(pid)?.command.split(' ') ?? []));
    while (todo.length > 0) {
      for (const child of children.get(todo.pop()!) ?? []) {
        if (group.has(child.pid) || keyOf(child.pid) !== key) continue;
        group.add(child.pid);
        if (isLauncher(child.argv ?? child.command.split(' '))) todo.push(child.pid);
      }
    }
  }

  const sessions: StdioSession[] = [];
  for (const [key, pids] of groups) {
    const members = [...pids]
      .map((pid) => byPid.get(pid)!)
      .sort((a, b) => {
        const aTop = pids.has(a.ppid) ? 1 : 0;
        const bTop = pids.has(b.ppid) ? 1 : 0;
        return aTop - bTop || a.startTime - b.startTime || a.pid - b.pid;
      });
    const fds = stdioOf(members[0]!.pid)!;
    const ev = [...new Set(members.flatMap((m) => (evidence.get(m.pid) ?? []).map((line) => `${m.pid}: ${line}`)))];
    const marker = members.map((m) => markers.get(m.pid)).find((v) => v !== undefined) ?? null;
    const conf = members.flatMap((m) => (configured.get(m.pid) ?? []).map((c) => ({ ...c, pid: m.pid })));
    sessions.push({ key, stdin: fds.find((d) => d.fd === 0)!, stdout: fds.find((d) => d.fd === 1)!, members, evidence: ev, configured: conf, marker });
  }
  const uncounted = live.filter((p) => !evidence.has(p.pid));
  return { table, byPid, sessions, unreadable, uncounted };
}
