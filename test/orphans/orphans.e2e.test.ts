/**
 * `crash-drill orphans` on real orphans made here: a SIGKILLed client, an npx chain that lost
 * its client, a SIGSTOPped client; and what must never be flagged: a live client, the same
 * command under a second live client, ordinary node and python3 processes whose client died.
 * The machine is shared (other tests run drills), so assertions look at our own processes.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrphanReport } from '../../harness/orphans/find-orphans.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { alive, cleanup, FIXTURES, killClient, marked, serverPair, startPair, stopClient, type Pair } from './helpers.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;

let gone: Pair;
let chain: Pair;
let stuck: Pair;
let healthy: Pair;
let sameCommand: Pair;
let plainNode: Pair;
let plainPython: Pair | null = null;

beforeAll(async () => {
  [gone, chain, stuck, healthy, sameCommand, plainNode] = await Promise.all([
    serverPair(),
    startPair('npx', ['--yes', '--offline', join(FIXTURES, 'tiny-mcp')]),
    serverPair(),
    serverPair(),
    serverPair(),
    // An ordinary node process whose client dies: stdio pipes, ppid 1, but no MCP evidence.
    startPair('node', ['-e', 'process.stderr.write("server-up\\n"); setInterval(() => {}, 1 << 30)']),
  ]);
  if (hasPython) plainPython = await startPair('python3', ['-c', 'import sys, time; sys.stderr.write("server-up\\n"); sys.stderr.flush(); time.sleep(3600)']);
  await Promise.all([killClient(gone), killClient(chain), killClient(plainNode), plainPython ? killClient(plainPython) : null]);
  await stopClient(stuck);
}, 90_000);

afterAll(cleanup, 30_000);

async function orphansJson(args: string[] = [], cwd?: string): Promise<{ code: number | null; report: OrphanReport }> {
  const run = await runCli(['orphans', '--json', ...args], { cwd });
  expect(run.stderr).toBe('');
  return { code: run.code, report: JSON.parse(run.stdout) as OrphanReport };
}

function ours(report: OrphanReport): Map<number, string> {
  const mine = new Set(marked().map((p) => p.pid));
  return new Map(report.entries.filter((e) => mine.has(e.pid)).map((e) => [e.pid, e.classification]));
}

describe('crash-drill orphans', () => {
  // One look with --all, shared: each CLI start costs seconds on a busy machine.
  let everything: Promise<{ code: number | null; report: OrphanReport }>;
  beforeAll(() => {
    everything = orphansJson(['--all']);
  });

  it('lists exactly the orphans made here, each with the right classification, and exits 1', async () => {
    const { code, report } = await orphansJson();
    expect(code).toBe(1);
    expect(ours(report)).toEqual(
      new Map([
        [gone.server.pid, 'client-gone'],
        [chain.server.pid, 'client-gone'],
        [stuck.server.pid, 'client-stuck'],
      ]),
    );
    const entry = report.entries.find((e) => e.pid === gone.server.pid)!;
    expect(entry.serverEvidence).toEqual([`${gone.server.pid}: command matches default pattern "mcp"`]);
    expect(entry.evidence.filter((l) => l.startsWith('no live process holds'))).toHaveLength(2);
    expect(entry.evidence).toContain('hint only: its parent is pid 1');
    expect(report.entries.find((e) => e.pid === stuck.server.pid)!.evidence).toEqual([
      `client ${stuck.client.pid} (${process.execPath} ${join(FIXTURES, 'client.mjs')} node fake-mcp-server.mjs) is stopped (state T)`,
    ]);
  });

  it('shows an npx chain as one entry: npm exec on top, sh in the middle, the node server below', async () => {
    const report = (await everything).report;
    const entry = report.entries.find((e) => e.pid === chain.server.pid)!;
    expect(entry.command).toMatch(/^npm exec /);
    expect(entry.chain.map((c) => c.launcher)).toEqual([true, true, false]);
    expect(entry.server.command).toMatch(/node .*tiny-mcp/);
    expect(entry.server.pid).toBe(entry.chain[2]!.pid);
  });

  it('lists a live client and a second session of the same command only with --all, as attached; never a plain node or python3', async () => {
    const { report } = await everything;
    const mine = ours(report);
    expect(mine.get(healthy.server.pid)).toBe('attached');
    expect(mine.get(sameCommand.server.pid)).toBe('attached');
    expect(mine.has(plainNode.server.pid)).toBe(false);
    if (plainPython) expect(mine.has(plainPython.server.pid)).toBe(false);
    else console.log('python3 is not installed: the ordinary python3 process case is skipped');
    expect(alive(plainNode.server)).toBe(true);
  });

  it('exits 0 when no process matches, 1 when one does (--no-defaults --match)', async () => {
    expect((await orphansJson(['--no-defaults', '--match', 'no-such-server-[0-9a-f]{32}'])).code).toBe(0);
    const { code, report } = await orphansJson(['--no-defaults', '--match', 'fake-mcp-server\\.mjs']);
    expect(code).toBe(1);
    expect(ours(report)).toEqual(
      new Map([
        [gone.server.pid, 'client-gone'],
        [stuck.server.pid, 'client-stuck'],
      ]),
    );
    expect(report.entries.find((e) => e.pid === gone.server.pid)!.serverEvidence).toEqual([
      `${gone.server.pid}: command matches --match pattern "fake-mcp-server\\\\.mjs"`,
    ]);
  });

  it('a bad --match is a usage error naming the flag (exit 3)', async () => {
    const run = await runCli(['orphans', '--match', '(unclosed']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^crash-drill: orphans: --match #1: expected a regular expression, got "\(unclosed"/);
  });

  it('honours orphans.match of a crash-drill.config.ts, found and loaded as run finds and loads it (.ts before .mjs)', async () => {
    const dir = tempDir('crash-drill-orphans-config-');
    // A config for the live-machine commands alone names no scenarios.
    writeFileSync(join(dir, 'crash-drill.config.ts'), "const match: string[] = ['fake-mcp-server\\\\.mjs'];\nexport default { orphans: { match } };\n");
    writeFileSync(join(dir, 'crash-drill.config.mjs'), "export default { orphans: { match: ['no-such-server-[0-9a-f]{32}'] } };\n");
    const { code, report } = await orphansJson(['--no-defaults'], dir);
    expect(code).toBe(1);
    expect(ours(report).get(gone.server.pid)).toBe('client-gone');
    expect(report.entries.find((e) => e.pid === gone.server.pid)!.serverEvidence).toEqual([
      `${gone.server.pid}: command matches config pattern "fake-mcp-server\\\\.mjs"`,
    ]);
  });

  it('a .ts config with a bad field is a user error naming the file and the field (exit 3)', async () => {
    const dir = tempDir('crash-drill-orphans-config-');
    writeFileSync(join(dir, 'crash-drill.config.ts'), 'export default { orphans: { match: [42 as unknown as string] } };\n');
    const run = await runCli(['orphans', '--json', '--no-defaults'], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'crash-drill: orphans: crash-drill.config.ts: orphans.match[0]: expected a string, got the number 42 (quote it to make it a string)\n',
    );
    expect(run.stdout).toBe('');
  });
});
