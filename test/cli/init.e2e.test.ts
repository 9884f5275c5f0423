/**
 * End to end: `crash-drill init` against a real fake server, in a temp project folder; the
 * files it writes are then run by the real `crash-drill run`. No process of init may remain.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../harness/run/config-file.js';
import { loadScenarios } from '../../harness/config/index.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli, type CliRun } from '../support/cli.js';
import { initLeftovers as leftovers, initMarker } from '../support/init-leftovers.js';
import { tempDir } from '../support/temp-dir.js';

const ROOT = packageRoot();
const SERVER = ['--command', 'node', '--arg', 'dist/fake-servers/well-behaved.js', '--cwd', ROOT];
const TOOLS = ['echo', 'spawn-helper', 'slow', 'subscribe', 'write', 'start-job'];
/** The tools that do not say they are read-only, whose scenarios go first (scenarios/may-write/). */
const WRITERS = TOOLS.filter((t) => t !== 'echo');
/** Every scenario file init writes for the well-behaved server, in the order a run loads them. */
const FILES = ['lifecycle.yaml', ...WRITERS.map((t) => `may-write/${t}.yaml`).sort(), 'read-only/echo.yaml'];
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .sort();

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
  it('writes the config, the lifecycle scenario and a scenario per tool that `crash-drill run` accepts and runs', async () => {
    const dir = project();
    const run = await init(SERVER, dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 2 lifecycle points + 2 points for each of 6 tools, each in 3 modes.
    expect(run.stdout).toContain('wrote crash-drill.config.mjs and 7 scenarios (42 drills: each point in crash, close and hang):\n');
    expect(initLeftovers()).toEqual([]);

    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(yamlFiles(join(dir, 'scenarios'))).toEqual(FILES);
    const echo = readFileSync(join(dir, 'scenarios/read-only/echo.yaml'), 'utf8');
    expect(echo.split('\n')[0]).toBe('# yaml-language-server: $schema=../../node_modules/mcp-crash-drill/schema/scenario.schema.json');
    expect(echo).toContain('adjust them');

    // Loaded as a run loads them: the lifecycle first, then the tools that may write.
    const scenarios = await loadScenarios([join(dir, 'scenarios')]);
    expect(scenarios.map((s) => s.id)).toEqual(['lifecycle', ...[...WRITERS].sort(), 'echo']);
    const byId = new Map(scenarios.map((s) => [s.id, s]));
    // Where the call is never written, once for the server, any tool (the first that may write) as its target.
    expect(byId.get('lifecycle')).toMatchObject({ points: ['idle', 'pre-dispatch'], modes: ['crash', 'close', 'hang'], target: { call: 'spawn-helper' } });
    expect(byId.get('lifecycle')?.expectation?.map((s) => s.id)).toEqual(['stops-accepting-calls', 'exits-within', 'leaves-no-helper']);
    // echo is annotated read-only; the others say nothing, so they are treated as writers. Each tool: where its call is written.
    expect(byId.get('echo')).toMatchObject({ points: ['in-flight', 'after-response'], target: { call: 'echo', args: { text: 'example' } } });
    expect(byId.get('echo')?.remote.declared).toBe(false);
    // The points that need the drill remote are left out of the first run, written commented out.
    for (const id of WRITERS) {
      expect(byId.get(id)?.points).toEqual(['in-flight', 'after-response']);
      expect(byId.get(id)?.remote.declared).toBe(false);
      expect(byId.get(id)?.expectation).toEqual([{ id: 'records-every-action' }]);
    }
    const write = readFileSync(join(dir, 'scenarios/may-write/write.yaml'), 'utf8');
    expect(write).toContain('#   env: { API_URL: "{{remote.url}}", API_TOKEN: "{{session.token}}" }\n');
    expect(write).toContain(
      '# points: [in-flight, sent, confirmed, after-response]\n# remote: {}\n# expectation: [records-every-action, no-write-after-loss, writes-carry-key-and-session]\n',
    );
    expect(echo).not.toContain('# remote: {}');
    expect(run.stdout).toContain('sent and confirmed are left out of this first run');
    expect(byId.get('slow')?.target?.args).toEqual({ ms: 1 });
    expect(byId.get('write')?.target?.args).toEqual({ op: 'example', target: 'example' });
    expect(byId.get('slow')?.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js'], cwd: ROOT });

    // The config loads (with the package installed as a user's project would have it).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules/mcp-crash-drill'), 'dir');
    expect(await loadConfigFile(join(dir, 'crash-drill.config.mjs'))).toEqual({ scenarios: [join(dir, 'scenarios')], out: join(dir, 'crash-drill-report') });

    const drill = await runCli(['run', 'scenarios', '--point', 'idle,in-flight', '--mode', 'crash', '--out', join(dir, 'out')], { cwd: dir });
    expect([0, 1]).toContain(drill.code);
    expect(drill.stdout).toMatch(/\d+ passed, \d+ failed, 0 unknown\n?$/);
    const results = JSON.parse(readFileSync(join(dir, 'out/results.json'), 'utf8'));
    // --point chooses the points of every scenario: the lifecycle is drilled in flight too, and a
    // tool's scenario at idle is the lifecycle's idle drill (the same server, the target never sent).
    expect(results.drills.map((d: { key: string }) => d.key)).toEqual([
      'lifecycle/idle/crash',
      'lifecycle/in-flight/crash',
      ...[...WRITERS].sort().map((t) => `${t}/in-flight/crash`),
      'echo/in-flight/crash',
    ]);
    expect(results.notRepeated).toEqual(
      [...[...WRITERS].sort(), 'echo'].map((t) => ({
        key: `${t}/idle/crash`,
        sameAs: 'lifecycle/idle/crash',
        scenario: t,
        clientProfile: 'ts-sdk',
        clientVersions: '>=1.24',
      })),
    );
  });

  it('refuses to overwrite without --force and writes nothing half-way; --force overwrites', async () => {
    const dir = project();
    expect((await init(SERVER, dir)).code).toBe(0);

    const again = await init(SERVER, dir);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('crash-drill.config.mjs exists already; refusing to overwrite it (use --force to overwrite)');

    // Only a scenario is in the way: nothing is written, not even the config that was free.
    rmSync(join(dir, 'crash-drill.config.mjs'));
    writeFileSync(join(dir, 'scenarios/may-write/slow.yaml'), 'mine\n');
    rmSync(join(dir, 'scenarios/read-only'), { recursive: true });
    const blocked = await init(SERVER, dir);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toBe(
      'crash-drill: init: scenarios/lifecycle.yaml, scenarios/may-write/slow.yaml, scenarios/may-write/spawn-helper.yaml, scenarios/may-write/start-job.yaml, scenarios/may-write/subscribe.yaml, scenarios/may-write/write.yaml exist already; refusing to overwrite (use --force to overwrite); nothing was written\n',
    );
    expect(readdirSync(dir)).toEqual(['scenarios']);
    expect(yamlFiles(join(dir, 'scenarios'))).toEqual(FILES.filter((f) => !f.startsWith('read-only/')));
    expect(readFileSync(join(dir, 'scenarios/may-write/slow.yaml'), 'utf8')).toBe('mine\n');

    const forced = await init([...SERVER, '--force'], dir);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'scenarios/may-write/slow.yaml'), 'utf8')).toContain('call: slow');
    expect(yamlFiles(join(dir, 'scenarios'))).toEqual(FILES);
    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(initLeftovers()).toEqual([]);
  });

  it("refuses, even with --force, when a file it does not write has a scenario id it writes (an earlier init's layout), writing nothing", async () => {
    const dir = project();
    mkdirSync(join(dir, 'scenarios'));
    // What init wrote before the lifecycle scenario: scenarios/<tool>.yaml, id <tool>.
    const old = 'id: write\nsubject: { command: node, args: [server.js] }\ntarget: { call: write }\npoints: [idle, pre-dispatch, in-flight, after-response]\n';
    writeFileSync(join(dir, 'scenarios/write.yaml'), old);
    writeFileSync(join(dir, 'scenarios/mine.yaml'), 'id: mine\nsubject: { command: node, args: [other.js] }\ntarget: { call: x }\n');
    const run = await init([...SERVER, '--force'], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'crash-drill: init: scenarios/write.yaml has the id "write", which init writes to scenarios/may-write/write.yaml: scenario ids must be unique, so run would refuse both; move or remove it (an earlier init wrote one scenario per tool at the top of the folder); nothing was written\n',
    );
    expect(yamlFiles(join(dir, 'scenarios'))).toEqual(['mine.yaml', 'write.yaml']);
    expect(readdirSync(dir)).toEqual(['scenarios']);
    // Moved away, the rest of the folder (another id) stays beside what init writes.
    rmSync(join(dir, 'scenarios/write.yaml'));
    expect((await init([...SERVER, '--force'], dir)).code).toBe(0);
    expect(yamlFiles(join(dir, 'scenarios'))).toEqual([...FILES, 'mine.yaml'].sort());
    expect(initLeftovers()).toEqual([]);
  });

  it('exits 3 with a usage line without a command when stdin is not a terminal, starting nothing', async () => {
    const dir = project();
    const run = await init([], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'crash-drill: init: no server command given, and stdin is not a terminal to ask on\n' +
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
    const [echo] = await loadScenarios([join(dir, 'scenarios/read-only/echo.yaml')]);
    expect(echo.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js', '--force'], cwd: ROOT });
    // Run again with the same words: --force went to the server, so init refuses to overwrite.
    const again = await init(['--cwd', ROOT, 'node', 'dist/fake-servers/well-behaved.js', '--force'], dir);
    expect(again.code).toBe(3);
    expect(again.stderr).toBe('crash-drill: init: crash-drill.config.mjs exists already; refusing to overwrite it (use --force to overwrite)\n');
    // Ours before `--`, the server's after it.
    const forced = await init(['--force', '--cwd', ROOT, '--', 'node', 'dist/fake-servers/well-behaved.js', '--dir', 'x'], dir);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    const [echo2] = await loadScenarios([join(dir, 'scenarios/read-only/echo.yaml')]);
    expect(echo2.subject).toMatchObject({ command: 'node', args: ['dist/fake-servers/well-behaved.js', '--dir', 'x'] });
    expect(readdirSync(dir).sort()).toEqual(['crash-drill.config.mjs', 'scenarios']);
    expect(initLeftovers()).toEqual([]);
  });

  it('exits 3 when the server is given both as <command> and as --command/--arg, starting nothing', async () => {
    const dir = project();
    const run = await init(['--command', 'node', 'python3', 'server.py'], dir);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('crash-drill: init: the server command is given twice: as <command> ("python3") and as --command/--arg; give one of them\n');
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
    expect(readdirSync(join(dir, 'drills'))).toContain('lifecycle.yaml');
    expect(initLeftovers()).toEqual([]);
  });
});
