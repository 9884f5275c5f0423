/** Human text for `orphans` and `inspect`. Plain text: no colour, so it reads the same in a terminal, a cron mail and a CI log. */
import { matchLine } from '../mcp-clients/matcher.js';
import { duration } from './duration.js';
import type { OrphanEntry, OrphanReport } from './find-orphans.js';
import type { Snapshot } from './inspect.js';

function reachLine(e: OrphanEntry): string {
  const r = e.reach;
  const parts = [
    r.credentials.length > 0 ? `credentials: ${r.credentials.join(', ')}` : 'no credential in its environment',
    `${r.tcpEstablished} TCP connection${r.tcpEstablished === 1 ? '' : 's'}`,
    `${r.children} child${r.children === 1 ? '' : 'ren'}`,
    `age ${duration(r.ageMs)}`,
  ];
  return parts.join('; ');
}

export function renderOrphans(report: OrphanReport): string {
  const out: string[] = [];
  for (const e of report.entries) {
    out.push(`${e.classification.toUpperCase()}  pid ${e.pid} (start ${e.startTime}) user ${e.user}  ${e.command}`);
    if (e.server.pid !== e.pid) out.push(`  server: pid ${e.server.pid}  ${e.server.command}`);
    if (e.chain.length > 1) out.push(`  chain: ${e.chain.map((c) => `${c.pid}${c.launcher ? ' (launcher)' : ''}`).join(' -> ')}`);
    out.push(clientLine(e));
    out.push(`  reach: ${reachLine(e)}`);
    for (const line of e.evidence) out.push(`  because: ${line}`);
    out.push(...configuredLines(e));
    for (const line of e.serverEvidence) out.push(`  MCP server: ${line}`);
  }
  const c = report.counts;
  if (report.unreadable.length > 0)
    out.push(
      `${report.unreadable.length} matching process${report.unreadable.length === 1 ? '' : 'es'} of other users could not be read (run as root to see them): ${report.unreadable.map((p) => p.pid).join(', ')}`,
    );
  for (const u of report.uncounted) out.push(`NOT COUNTED  pid ${u.pid} (start ${u.startTime})  ${u.command}`, `  because: ${u.why}`);
  for (const line of report.clientConfigs.problems) out.push(`client config: ${line}`);
  const cc = report.clientConfigs;
  out.push(`client configurations: ${cc.files.length} file${cc.files.length === 1 ? '' : 's'} read, ${cc.entries} stdio entr${cc.entries === 1 ? 'y' : 'ies'}`);
  for (const b of report.blindSpots) out.push(`note: ${b}`);
  if (c.unresolved > 0) out.push(`${c.unresolved} MCP server${c.unresolved === 1 ? '' : 's'} could not be classified (see --all)`);
  out.push(
    `${c['client-gone']} client gone, ${c['client-stuck']} client stuck, ${c.detached} detached, ${c.superseded} superseded, ${c.attached} attached, ${c.unresolved} unresolved (${report.backend} backend, ${report.durationMs} ms)`,
  );
  return `${out.join('\n')}\n`;
}

/**
 * Whose server it is, from both sources: the client and entry of the configuration it matches,
 * and the live process that is its client, with how the process tree and its stdio show it.
 */
export function clientLine(e: Pick<OrphanEntry, 'client'>): string {
  const { configured, process: p, parents } = e.client;
  const byConfig = configured.length > 0 ? configured.map((c) => `${c.client} (entry ${c.entry})`).join(', ') : 'no configuration entry';
  if (p === null) return `  client: ${byConfig}; no live process holds its stdio (its parent is ${parents[0]?.pid ?? 'not known'})`;
  const relation = !p.ancestor ? 'not its ancestor' : parents[0]?.pid === p.pid ? 'its parent' : 'its ancestor';
  return `  client: ${byConfig}; process ${p.pid} (start ${p.startTime}) ${p.command}: ${[relation, ...p.holds.map((h) => `holds ${h}`)].join('; ')}`;
}

/** Which client and entry it belongs to, first: the strongest evidence; or that only a pattern counted it. */
export function configuredLines(e: Pick<OrphanEntry, 'configured' | 'serverEvidence'>): string[] {
  if (e.configured.length === 0) {
    const by = e.serverEvidence.some((l) => l.includes('command matches')) ? 'a server pattern only' : 'its drill marker only';
    return [`  configured: no client configuration entry matches it; counted by ${by}`];
  }
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const m of e.configured) {
    const line = `  configured: ${matchLine(m)}, pid ${m.pid}; ${m.file}${m.envNames.length > 0 ? `; env names: ${m.envNames.join(', ')}` : ''}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return lines;
}

function who(h: { pid: number; state: string; command: string }): string {
  return `${h.pid} [${h.state}] ${h.command}`;
}

export function renderSnapshot(s: Snapshot): string {
  const p = s.process;
  const out = [
    `process ${p.pid} (start ${p.startTime}, started ${p.startedAt}, running ${duration(p.elapsedMs)})`,
    `  user ${p.user}  ppid ${p.ppid}  pgid ${p.pgid}  sid ${p.sid ?? '?'}  state ${p.state}`,
    `  command: ${p.command}`,
    'stdio:',
  ];
  const names = ['stdin', 'stdout', 'stderr'];
  if (s.stdio === null) out.push('  (cannot be read by this user)');
  for (const d of s.stdio ?? []) {
    out.push(`  ${names[d.fd]}: ${d.kind} ${d.object}${d.access ? ` (${d.access})` : ''}`);
    if (d.kind !== 'pipe' && d.kind !== 'socket') continue;
    if (d.holders === null) out.push(`    ${d.otherEnd}: cannot be resolved`);
    else if (d.holders.length === 0) out.push(`    ${d.otherEnd}: held by no live process`);
    else for (const h of d.holders) out.push(`    ${d.otherEnd}: ${who(h)} (fd ${h.fd})`);
  }
  if (s.eofPending) out.push('  no live process holds the write end of its stdin: the client is gone and EOF is pending');
  out.push('other descriptors:');
  for (const d of s.descriptors ?? []) {
    if (d.tcp) out.push(`  ${d.fd} ${d.protocol ?? 'tcp'} ${d.tcp.local} -> ${d.tcp.remote} (${d.tcp.state})`);
    else if (d.protocol === 'unix')
      out.push(
        `  ${d.fd} unix ${d.object}${d.path ? ` ${d.path}` : ''}${d.peerHolders && d.peerHolders.length > 0 ? ` peer: ${d.peerHolders.map((h) => `${h.pid} ${h.command}`).join(', ')}` : d.peer ? ` peer ${d.peer}` : ''}`,
      );
    else out.push(`  ${d.fd} ${d.kind} ${d.object}${d.access ? ` (${d.access})` : ''}`);
  }
  const list = (label: string, ps: { pid: number; state: string; command: string }[]) =>
    out.push(ps.length === 0 ? `${label}: none` : `${label}:`, ...ps.map((q) => `  ${who(q)}`));
  list('children', s.related.children);
  list('grandchildren', s.related.grandchildren);
  list(`process group ${p.pgid}`, s.related.processGroup);
  list(`session ${p.sid ?? '?'}`, s.related.session);
  out.push(
    `credentials in its environment (names only): ${s.credentials === null ? 'cannot be read' : s.credentials.length === 0 ? 'none' : s.credentials.join(', ')}`,
  );
  if (s.marker) out.push(`drill marker: ${s.marker}`);
  if (s.configured !== null && s.configured.length === 0) out.push('configured: no client configuration entry matches it or its launchers');
  for (const line of s.configured ? configuredLines({ configured: s.configured, serverEvidence: [] }) : []) out.push(line.trim());
  out.push(`launcher chain: ${s.launcherChain.map((c) => `${c.pid}${c.launcher ? ' (launcher)' : ' (server)'} ${c.command}`).join('  ->  ')}`);
  for (const b of s.blindSpots) out.push(`note: ${b}`);
  return `${out.join('\n')}\n`;
}
