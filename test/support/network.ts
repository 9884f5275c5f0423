/**
 * What the `network: loopback` tests share (test/drill/network/, test/unprivileged/network.e2e.test.ts):
 * the reaches-out scenario, a listener on a real non-loopback address of this machine (reached
 * on the host's network, refused in the namespace: no Internet needed to prove both ways), the
 * run's results and evidence, and the leftovers a run must not leave.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { identify } from '../../harness/observe/identity.js';
import type { DrillResult } from '../../harness/results/types.js';
import type { CliRun } from './cli.js';
import { markedProcesses } from './markers.js';
import { fakeSubject, scenarioYaml } from './scenarios.js';
import { NOBODY } from './unprivileged.js';

/** A public address: never reached from the namespace, whatever the machine's network. */
export const PUBLIC_TARGET = '1.1.1.1:443';

/** The first non-internal IPv4 address of this machine, or null where it has none. */
export function hostAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

/** A TCP listener on every address (0.0.0.0) that accepts and closes; its port. */
export async function anyAddressListener(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', () => r()));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** reaches-out at idle/crash with a remote: section (so HTTPS and the run's CA too), its report written to `report`. */
export function reachYaml(id: string, report: string, targets: string[], root?: string, network?: 'host' | 'loopback'): string {
  const subject = { ...fakeSubject('well-behaved', {}, root), name: 'reaches-out' };
  subject.args = [subject.args![0]!.replace(/well-behaved\.js$/, 'reaches-out.js')];
  subject.env = { REACH_REPORT: report, REACH_TARGETS: targets.join(','), REACH_HTTPS_URL: '{{remote.httpsUrl}}' };
  return scenarioYaml({ id, subject, target: { call: 'echo' }, points: ['idle'], modes: ['crash'], remote: {}, retry: false, ...(network ? { network } : {}) });
}

export type Outcome = { ok: true; status?: number; body?: { drill?: string; session?: string } } | { ok: false; code: string };
export interface ReachReport {
  uid: number;
  netns: string;
  targets: Record<string, Outcome>;
  remote: Outcome | null;
  https: Outcome | null;
}

export function readReport(file: string): ReachReport {
  return JSON.parse(readFileSync(file, 'utf8')) as ReachReport;
}

export interface RunFiles {
  runId: string;
  drills: DrillResult[];
  /** Every evidence event of each drill, by drill key. */
  events: Map<string, Array<Record<string, unknown> & { type: string }>>;
}

/** The run's results.json and evidence; a run that wrote none fails with what it printed. */
export function runFiles(out: string, run: CliRun): RunFiles {
  const file = join(out, 'results.json');
  if (!existsSync(file)) throw new Error(`no ${file}: exit ${run.code ?? run.signal}\nstderr:\n${run.stderr}\nstdout:\n${run.stdout}`);
  const results = JSON.parse(readFileSync(file, 'utf8')) as { runId: string; drills: DrillResult[] };
  const events = new Map<string, Array<Record<string, unknown> & { type: string }>>();
  for (const d of results.drills) {
    const lines = d.evidence
      ? readFileSync(join(out, 'evidence', d.evidence.file), 'utf8')
          .trim()
          .split('\n')
      : [];
    events.set(
      d.key,
      lines.map((l) => JSON.parse(l)),
    );
  }
  return { runId: results.runId, drills: results.drills, events };
}

/** Each drill's key with its checks' verdicts, sorted: the table two runs are compared by. */
export function verdictTable(drills: DrillResult[]): Record<string, Record<string, string>> {
  const table: Record<string, Record<string, string>> = {};
  for (const d of [...drills].sort((a, b) => a.key.localeCompare(b.key))) table[d.key] = Object.fromEntries(d.checks.map((c) => [c.id, c.verdict]));
  return table;
}

/**
 * What a run leaves that it must not: a live process of the run (its marker), a keeper still
 * alive by its identity, a relay folder of the run. Empty when the run cleaned up.
 */
export function leftovers(files: RunFiles, dir = tmpdir()): string[] {
  const left: string[] = markedProcesses(files.runId).map((p) => `process ${p.pid} ${p.cmdline}`);
  for (const events of files.events.values())
    for (const e of events) {
      if (e.type !== 'network') continue;
      const keeper = e.keeper as { pid: number; startTime: number };
      const now = identify(keeper.pid);
      if (now && now.startTime === keeper.startTime) left.push(`keeper ${keeper.pid}`);
    }
  for (const name of readdirSync(dir)) if (name.startsWith(`crash-drill-${files.runId}.`)) left.push(`folder ${join(dir, name)}`);
  return left;
}

/**
 * The command, run as uid 65534, where no network namespace can be made: the ordinary user's own
 * user namespace (mapped root there, which may set its limits: one user namespace, no network
 * namespace), and in it one more where the command is uid 65534 again (its limit's one), as an
 * ordinary user would run it. Every unshare the harness tries then counts against the first
 * namespace's limits and fails with ENOSPC. (In the first alone the harness would be root over
 * files whose real owner it cannot map, and its run registry would refuse the unmapped /tmp.)
 */
export function withoutNamespaces(command: string[]): string[] {
  return [
    ...(process.getuid?.() === 0 ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'] : []),
    'unshare',
    '--user',
    '--map-root-user',
    'sh',
    '-c',
    'echo 0 > /proc/sys/user/max_net_namespaces && echo 1 > /proc/sys/user/max_user_namespaces && exec unshare --user --map-user=65534 --map-group=65534 "$@"',
    'sh',
    ...command,
  ];
}
