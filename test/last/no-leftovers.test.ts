/**
 * Our harness must never leave a process behind: not when a drill finds a leak, not when the
 * harness is interrupted (SIGINT, SIGTERM), and when the harness itself is SIGKILLed each drill's
 * holder (harness/drill/holder/holder.pl) ends what the drill started, and the next run reports it. These run last and alone (vitest.config.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, lastLine, runCli } from '../support/cli.js';
import { checkExit, type ProcIdentity } from '../../harness/observe/index.js';
import { runIdOf as runOfDrill } from '../../harness/observe/run-ids.js';
import { childrenOf, markedProcesses, sentinelProcesses } from '../support/markers.js';
import { until } from '../support/until.js';
import { fakeSubject, scenarioYaml, type FakeServer } from '../support/scenarios.js';
import { ownRegistryEnv } from '../support/own-registry.js';
import { tempDir } from '../support/temp-dir.js';
import { suiteName } from '../support/suite-tmp.js';

/** A drill of `server` at after-response/crash that waits 20 s for an exit and for survivors to end. */
function slowLeak(id: string, server: FakeServer): string {
  return scenarioYaml({
    id,
    subject: fakeSubject(server),
    target: { call: 'spawn-helper' },
    points: ['after-response'],
    modes: ['crash'],
    expect: { 'exit-on-eof': { deadline: 20000 }, 'no-survivors': { grace: 20000 } },
  });
}

/** A drill that passes at once. */
const NEXT = scenarioYaml({ id: 'next', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash'] });

/** Scenarios that keep drills busy for a while and leave survivors behind if nobody contains them. */
function leakyFolder(): string {
  const dir = tempDir('crash-drill-leftovers-');
  writeFileSync(join(dir, 'a.yaml'), slowLeak('stays-up', 'ignores-eof'));
  writeFileSync(join(dir, 'b.yaml'), slowLeak('leaks', 'leaks-child'));
  writeFileSync(join(dir, 'c.yaml'), slowLeak('daemon', 'daemonizes'));
  return dir;
}

function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; stdout: () => string; exit: Promise<{ code: number | null; signal: string | null }> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', () => {});
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, exit };
}

/** Exited: gone, or a zombie. */
const exited = (id: ProcIdentity): boolean => checkExit(id) !== null;

/** The killed run's sentinel, while it still works: the next run reads what it recorded. */
function sentinelOf(runId: string): boolean {
  return sentinelProcesses(runId).length > 0;
}

/** A PATH with node and sh and without perl: no holder, no stand-in, and the sentinel is Node alone. */
function pathWithoutPerl(): string {
  const bin = tempDir('crash-drill-noperl-');
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync('/bin/sh', join(bin, 'sh'));
  return bin;
}

async function runIdOf(stdout: () => string): Promise<string> {
  return until('the run id on the first line', () => /run (cd-[\w-]+)/.exec(stdout())?.[1], 20_000);
}

/**
 * Waits until all three drills are past their kill point: the server that ignores EOF is up and
 * the three helpers exist (its own, the one leaks-child leaves, the daemon). The other servers
 * exit on EOF, so they may or may not still be there.
 */
async function survivorsUp(runId: string, helpers = 3, servers = ['ignores-eof.js']): Promise<void> {
  await until(
    `the survivors of ${runId}`,
    () => {
      const commands = markedProcesses(runId).map((p) => p.cmdline);
      return servers.every((s) => commands.some((c) => c.includes(s))) && commands.filter((c) => c.includes('lib/helper.js')).length >= helpers;
    },
    30_000,
  );
}

/** Whatever an assertion does, the CLI we started does not outlive the test (SIGTERM: it contains). */
async function stopCli(cli: { child: ChildProcess; exit: Promise<unknown> }): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
  await cli.exit;
}

describe('no process is left behind', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} mid-run: the harness contains every drill, writes its results and exits ${signal === 'SIGINT' ? 130 : 143}`, async () => {
      const dir = leakyFolder();
      const out = join(dir, 'out');
      const cli = startCli(['run', dir, '--out', out, '--concurrency', '3']);
      let code: number | null;
      try {
        const runId = await runIdOf(cli.stdout);
        await survivorsUp(runId);
        // The CLI is our own unreaped child: its pid cannot have been reused.
        cli.child.kill(signal);
        code = (await cli.exit).code;
        expect(markedProcesses(runId)).toEqual([]);
      } finally {
        await stopCli(cli);
      }
      expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      expect(results.interrupted).toBe(true);
      expect(cli.stdout()).toContain('The run was interrupted; active drills were contained.');
      for (const drill of results.drills) {
        expect(drill.verdict).toBe('error');
        expect(drill.reason).toContain('interrupted');
        expect(drill.containment.length).toBeGreaterThan(0);
      }
    });
  }

  it("SIGKILL mid-run: the holders' watchdogs end every drill process within 2 s, and the next run reports what they ended", async () => {
    const dir = leakyFolder();
    writeFileSync(join(dir, 'd.yaml'), slowLeak('no-term', 'ignores-sigterm'));
    const registry = ownRegistryEnv();
    const cli = startCli(['run', dir, '--out', join(dir, 'out'), '--concurrency', '4'], registry);
    let runId: string;
    let killedAt: number;
    let writers: ProcIdentity[];
    try {
      runId = await runIdOf(cli.stdout);
      await survivorsUp(runId, 4, ['ignores-eof.js', 'ignores-sigterm.js']);
    } finally {
      // The harness's children: its holders and its sentinel, which write the watchdog record.
      writers = childrenOf(cli.child.pid!);
      cli.child.kill('SIGKILL');
      killedAt = Date.now();
      await cli.exit;
    }
    // No sweep runs meanwhile: the watchdogs alone end the SIGTERM-ignoring server, the server
    // that ignores EOF, the leaked helper and the daemon (issue target: 2 s after kill -9).
    await until('every drill process of the killed run to end', () => markedProcesses(runId).length === 0, Math.max(0, 2000 - (Date.now() - killedAt)));
    await until("the killed run's sentinel to finish its record", () => !sentinelOf(runId), 10_000);
    // A holder appends its record after the last process it ended is gone, then exits
    // (harness/drill/holder/holder.pl): the processes being gone is not the record being written.
    // SIGTERM-ignoring servers are ended last, so theirs came last, and a next run that started
    // in between missed ignores-sigterm.js.
    await until("the killed run's holders to write their records and exit", () => writers.every(exited), 10_000);

    const next = tempDir('crash-drill-next-');
    writeFileSync(join(next, 'n.yaml'), NEXT);
    const run = await runCli(['run', next, '--out', join(next, 'out')], { env: registry });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Left behind by an earlier, killed run (now contained):');
    expect(run.stdout).toContain("(by its holder's watchdog)");
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 0 unknown');
    const stale = JSON.parse(readFileSync(join(next, 'out', 'results.json'), 'utf8')).stale as Array<{
      drillId: string;
      pid: number;
      cmdline: string[];
      endedBy: string;
      containedBy: string;
    }>;
    expect(stale.every((s) => s.drillId.startsWith(`${runId}.`) && s.containedBy === 'watchdog')).toBe(true);
    const commands = stale.map((s) => s.cmdline.join(' '));
    expect(commands.filter((c) => c.includes('ignores-eof.js'))).toHaveLength(1);
    expect(commands.filter((c) => c.includes('ignores-sigterm.js'))).toHaveLength(1);
    // ignores-eof ends its own helper when our SIGTERM reaches it first: that helper is still in the record (every command line is read before the first signal).
    expect(commands.filter((c) => c.includes('lib/helper.js'))).toHaveLength(4);
    for (const s of stale) expect(['SIGTERM', 'SIGKILL']).toContain(s.endedBy);
    expect(markedProcesses(runId)).toEqual([]);
  });

  // Holders off with perl on PATH: the sentinel waits as perl and execs the Node sweep. No perl
  // at all: no holder either, and the sentinel is a Node process from the start.
  for (const variant of ['holders off (CRASH_DRILL_SUBREAPER=off), perl sentinel', 'no perl on PATH, Node sentinel'] as const) {
    it(`SIGKILL mid-run without holders, ${variant}: the run's sentinel ends every drill process within 2 s, and the next run reports it`, async () => {
      const dir = leakyFolder();
      const perl = variant.endsWith('perl sentinel');
      const registry = ownRegistryEnv();
      const env = { ...registry, ...(perl ? { CRASH_DRILL_SUBREAPER: 'off' } : { PATH: pathWithoutPerl() }) };
      const cli = startCli(['run', dir, '--out', join(dir, 'out'), '--concurrency', '3'], env);
      let runId: string;
      let killedAt: number;
      try {
        runId = await runIdOf(cli.stdout);
        await survivorsUp(runId);
        const argv = sentinelProcesses(runId)[0]?.argv ?? [];
        expect(argv[0]?.split('/').pop()).toBe(perl ? 'perl' : 'node');
        expect(argv.at(-1)).toBe(perl ? '--now' : runId);
      } finally {
        cli.child.kill('SIGKILL');
        killedAt = Date.now();
        await cli.exit;
      }
      await until(
        'the sentinel to end every drill process of the killed run',
        () => markedProcesses(runId).length === 0,
        Math.max(1, 2000 - (Date.now() - killedAt)),
      );
      await until("the killed run's sentinel to finish its record", () => !sentinelOf(runId), 10_000);

      const next = tempDir('crash-drill-next-');
      writeFileSync(join(next, 'n.yaml'), NEXT);
      const run = await runCli(['run', next, '--out', join(next, 'out')], { env: registry });
      expect(run.code).toBe(0);
      const stale = JSON.parse(readFileSync(join(next, 'out', 'results.json'), 'utf8')).stale as Array<{
        drillId: string;
        cmdline: string[];
        containedBy: string;
      }>;
      const ours = stale.filter((s) => s.drillId.startsWith(`${runId}.`));
      expect(ours.filter((s) => s.cmdline.join(' ').includes('ignores-eof.js'))).toHaveLength(1);
      expect(ours.filter((s) => s.cmdline.join(' ').includes('lib/helper.js'))).toHaveLength(3);
      expect(ours.every((s) => s.containedBy === 'watchdog')).toBe(true);
    });
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} mid-survey: both workers contain their drills, every scratch folder goes, no table, exit ${signal === 'SIGINT' ? 130 : 143}`, async () => {
      const dir = tempDir('crash-drill-survey-stop-');
      const leak = (id: string) =>
        `  - { id: ${id}, registry: local, package: fake-servers/leaks-child.ts, version: 0.1.0, launch: [node, "{{project}}/dist/fake-servers/leaks-child.js"], needs: [folder], calls: [{ tool: spawn-helper, args: {}, spawns: "a sleep helper" }], language: TypeScript, sdk: "@modelcontextprotocol/sdk 1.32.2", use: { figure: null, source: "bundled fake" }, repository: mcp-crash-drill/mcp-crash-drill }\n`;
      writeFileSync(join(dir, 'catalog.yaml'), `version: 1\nservers:\n${leak('leak-a')}${leak('leak-b')}${leak('leak-c')}`);
      const out = join(dir, 'out');
      const cli = startCli([
        'survey',
        '--catalog',
        join(dir, 'catalog.yaml'),
        '--client-profile',
        'ts-sdk',
        '--network',
        'host',
        '--parallel',
        '2',
        '--out',
        out,
      ]);
      let code: number | null;
      try {
        // Both servers' drills are under way (a helper in each one's run), so both lanes are busy and the third has not started.
        const runsWithHelpers = () =>
          new Set(
            markedProcesses(undefined, { suite: suiteName() })
              .filter((p) => p.cmdline.includes('lib/helper.js'))
              .map((p) => runOfDrill(p.marker)),
          ).size;
        await until("a helper in each of the first two servers' runs", () => runsWithHelpers() >= 2, 60_000);
        cli.child.kill(signal);
        code = (await cli.exit).code;
        expect(markedProcesses(undefined, { suite: suiteName() })).toEqual([]);
      } finally {
        await stopCli(cli);
      }
      expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(cli.stdout()).not.toContain('[3/3] leak-c');
      expect(cli.stdout()).toContain('[1/3] leak-a: interrupted; its drills were contained');
      expect(existsSync(join(out, 'survey.json'))).toBe(false);
      expect(readdirSync(tmpdir()).filter((name) => /^crash-drill-survey-leak-/.test(name))).toEqual([]);
    }, 120_000);
  }

  // Only the suite's own (CRASH_DRILL_SUITE, test/support/suite-tmp.ts): a drill run beside the suite on this machine is not a leak of it.
  it("after the whole test suite, no process carrying a drill marker of the suite's remains", () => {
    expect(markedProcesses(undefined, { suite: suiteName() })).toEqual([]);
  });
});
