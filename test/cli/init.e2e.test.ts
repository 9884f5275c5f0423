/**
 * End to end: `crash-drill init` against a real fake server, in a temp project folder; the
 * files it writes are then run by the real `crash-drill run`. No process of init may remain.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../harness/run/config-file.js';
import { loadScenarios } from '../../harness/config/index.js';
import { signalIdentity } from '../../harness/observe/signal.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli, type CliRun } from '../support/cli.js';
import { initLeftovers as leftovers, initMarker } from '../support/init-leftovers.js';
import { tempDir } from '../support/temp-dir.js';

const ROOT = packageRoot();
const SERVER = ['--command', 'node', '--arg', 'dist/fake-servers/well-behaved.js', '--cwd', ROOT];
const TOOLS = ['echo', 'spawn-helper', 'slow', 'subscribe', 'write', 'start-job'];

const dirs: string[] = [];
const { marker, env: INIT_ENV } = initMarker();
const initLeftovers = () => leftovers(marker);

function init(args: string[], cwd: string): Promise<CliRun> {
  return runCli(['init', ...args], { cwd, env: INIT_ENV });
}

function project(): string {
  const dir = tempDir('crash-drill-init-');
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  // A safety net only: the assertions below require that none is left. By identity.
  for (const id of initLeftovers()) signalIdentity(id, 'SIGKILL');
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('crash-drill init', () => {
  it('writes the config and a scenario per tool that `crash-drill run` accepts and runs', async () => {
    const dir = project();
    const run = await init(SERVER, dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('wrote crash-drill.config.mjs and 6 scenarios');
    expect(initLeftovers()).toEqual([]);

    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(readdirSync(join(dir, 'scenarios')).sort()).toEqual(TOOLS.map((t) => `${t}.yaml`).sort());
    const echo = readFileSync(join(dir, 'scenarios/echo.yaml'), 'utf8');
    expect(echo.split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/mcp-crash-drill/schema/scenario.schema.json');
    expect(echo).toContain('adjust them');

    const scenarios = await loadScenarios([join(dir, 'scenarios')]);
    const byId = new Map(scenarios.map((s) => [s.id, s]));
    // echo is annotated read-only; the others say nothing, so they are treated as writers.
    expect(byId.get('echo')).toMatchObject({ points: ['idle', 'in-flight', 'after-response'], target: { call: 'echo', args: { text: 'example' } } });
    expect(byId.get('echo')?.remote.declared).toBe(false);
    // The points that need the drill remote are left out of the first run, written commented out.
    for (const id of TOOLS.filter((t) => t !== 'echo')) {
      expect(byId.get(id)?.points).toEqual(['idle', 'pre-dispatch', 'in-flight', 'after-response']);
      expect(byId.get(id)?.remote.declared).toBe(false);
    }
    expect(readFileSync(join(dir, 'scenarios/write.yaml'), 'utf8')).toContain('#   env: { API_URL: "{{remote.url}}", API_TOKEN: "{{session.token}}" }\n');
    expect(run.stdout).toContain('sent and confirmed are left out of this first run');
    expect(byId.get('slow')?.target.args).toEqual({ ms: 1 });
    expect(byId.get('write')?.target.args).toEqual({ op: 'example', target: 'example' });
    expect(byId.get('slow')?.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js'], cwd: ROOT });

    // The config loads (with the package installed as a user's project would have it).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules/mcp-crash-drill'), 'dir');
    expect(await loadConfigFile(join(dir, 'crash-drill.config.mjs'))).toEqual({ scenarios: [join(dir, 'scenarios')], out: join(dir, 'crash-drill-report') });

    const drill = await runCli(['run', 'scenarios', '--point', 'idle', '--mode', 'crash', '--out', join(dir, 'out')], { cwd: dir });
    expect([0, 1]).toContain(drill.code);
    expect(drill.stdout).toMatch(/\d+ passed, \d+ failed, 0 unknown\n?$/);
    const results = JSON.parse(readFileSync(join(dir, 'out/results.json'), 'utf8'));
    expect(results.drills.map((d: { scenario: string }) => d.scenario).sort()).toEqual([...TOOLS].sort());
  });

  it('refuses to overwrite without --force and writes nothing half-way; --force overwrites', async () => {
    const dir = project();
    expect((await init(SERVER, dir)).code).toBe(0);

    const again = await init(SERVER, dir);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('crash-drill.config.mjs exists already; refusing to overwrite it (use --force to overwrite)');

    // Only a scenario is in the way: nothing is written, not even the config that was free.
    rmSync(join(dir, 'crash-drill.config.mjs'));
    writeFileSync(join(dir, 'scenarios/slow.yaml'), 'mine\n');
    rmSync(join(dir, 'scenarios/echo.yaml'));
    const blocked = await init(SERVER, dir);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toContain(
      'scenarios/spawn-helper.yaml, scenarios/slow.yaml, scenarios/subscribe.yaml, scenarios/write.yaml, scenarios/start-job.yaml exist already; refusing to overwrite',
    );
    expect(readdirSync(dir)).toEqual(['scenarios']);
    expect(readdirSync(join(dir, 'scenarios')).sort()).toEqual(
      TOOLS.filter((t) => t !== 'echo')
        .map((t) => `${t}.yaml`)
        .sort(),
    );
    expect(readFileSync(join(dir, 'scenarios/slow.yaml'), 'utf8')).toBe('mine\n');

    const forced = await init([...SERVER, '--force'], dir);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'scenarios/slow.yaml'), 'utf8')).toContain('call: slow');
    expect(readdirSync(join(dir, 'scenarios')).sort()).toEqual(TOOLS.map((t) => `${t}.yaml`).sort());
    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(initLeftovers()).toEqual([]);
  });

  it('exits 3 with a usage line without a command when stdin is not a terminal, starting nothing', async () => {
    const dir = project();
    const run = await init([], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'crash-drill init: no server command given, and stdin is not a terminal to ask on\n' +
        'usage: crash-drill init [--cwd <dir>] [--dir <scenarios dir>] [--force] [--] <command> [args...]   (or --command <cmd> [--arg <a>]...)\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes the server as <command> [args...]: what follows the command is the server's, flags too", async () => {
    const dir = project();
    // --force after the command is the server's argument, not init's (the server ignores it).
    const run = await init(['--cwd', ROOT, 'node', 'dist/fake-servers/well-behaved.js', '--force'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [echo] = await loadScenarios([join(dir, 'scenarios/echo.yaml')]);
    expect(echo.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js', '--force'], cwd: ROOT });
    // Run again with the same words: --force went to the server, so init refuses to overwrite.
    const again = await init(['--cwd', ROOT, 'node', 'dist/fake-servers/well-behaved.js', '--force'], dir);
    expect(again.code).toBe(3);
    expect(again.stderr).toBe('crash-drill init: crash-drill.config.mjs exists already; refusing to overwrite it (use --force to overwrite)\n');
    // Ours before `--`, the server's after it.
    const forced = await init(['--force', '--cwd', ROOT, '--', 'node', 'dist/fake-servers/well-behaved.js', '--dir', 'x'], dir);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    const [echo2] = await loadScenarios([join(dir, 'scenarios/echo.yaml')]);
    expect(echo2.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js', '--dir', 'x'] });
    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(initLeftovers()).toEqual([]);
  });

  it('exits 3 when the server is given both as <command> and as --command/--arg, starting nothing', async () => {
    const dir = project();
    const run = await init(['--command', 'node', 'python3', 'server.py'], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('crash-drill init: the server command is given twice: as <command> ("python3") and as --command/--arg; give one of them\n');
    const fromClient = await init(['--from-client', 'cursor', 'node', 'server.js'], dir);
    expect(fromClient.code).toBe(3);
    expect(fromClient.stderr).toContain('leave out <command>, --command, --arg and --cwd');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exits 4 naming the command when the server cannot be started', async () => {
    const dir = project();
    const run = await init(['--command', '/nonexistent/mcp-server'], dir);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('could not list the tools of `/nonexistent/mcp-server`');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('ends a server that a wrapper left behind (the SDK signals only its direct child), by identity', async () => {
    const dir = project();
    // `sh -c '...; true'` keeps sh as the parent, like `npx`: SIGTERM to sh leaves node running.
    const script = `node ${join(ROOT, 'dist/fake-servers/ignores-eof.js')}; true`;
    const run = await init(['--command', 'sh', '--arg', '-c', '--arg', script, '--dir', 'drills'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/note: pid \d+ \(node \S+ignores-eof\.js\) was still running after the client closed; ended it \(SIG(TERM|KILL)\)/);
    expect(readdirSync(join(dir, 'drills'))).toContain('echo.yaml');
    expect(initLeftovers()).toEqual([]);
  });
});
