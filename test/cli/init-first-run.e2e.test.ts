/**
 * A new user's first run, end to end: the packed tarball (`npm pack`) installed in a fresh
 * project (`npm init -y`, `npm install <tarball>`), then `npx crash-drill init node server.mjs`
 * and `npx crash-drill run` on a three-tool server, as the README tells it. What init writes
 * must give no ERROR and no UNKNOWN of its own making, within a minute.
 *
 * The install is offline: `npm install --offline` from the npm cache. Where the cache has no
 * package documents for the dependencies (a cache that only `npm ci` filled holds tarballs,
 * not the registry's metadata), the tarball is unpacked into node_modules as npm would and its
 * dependencies are linked from this checkout's node_modules; the test says which it did.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, collect } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';

const ROOT = packageRoot();
const NPM_QUIET = ['--no-audit', '--no-fund', '--logs-max=0', '--loglevel=error'];

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync('npm', [...args, ...NPM_QUIET], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

/** Runs `npx --offline --no crash-drill ...` in the project: the installed bin, never a download. */
function npx(args: string[], cwd: string): Promise<CliRun> {
  const child = spawn('npx', ['--offline', '--no', '--logs-max=0', 'crash-drill', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child);
}

/** The tarball unpacked as npm installs it, its bin linked, its dependencies from this checkout. */
function installByHand(tarball: string, project: string): void {
  const pkg = join(project, 'node_modules/mcp-crash-drill');
  mkdirSync(pkg, { recursive: true });
  const tar = spawnSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  mkdirSync(join(project, 'node_modules/.bin'));
  symlinkSync('../mcp-crash-drill/dist/bin/crash-drill.js', join(project, 'node_modules/.bin/crash-drill'));
  const deps = Object.keys(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).dependencies);
  for (const dep of deps) {
    mkdirSync(join(project, 'node_modules', dep, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), join(project, 'node_modules', dep), 'dir');
  }
}

describe('a first run from the packed tarball', () => {
  it('npm pack, install in a fresh project, npx crash-drill init node server.mjs, npx crash-drill run: no ERROR, no UNKNOWN', async () => {
    const dir = tempDir('cd-first-run-');
    const pack = npm(['pack', '--ignore-scripts', '--pack-destination', dir], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = join(dir, pack.stdout.trim().split('\n').at(-1)!);
    const project = join(dir, 'project');
    mkdirSync(project);
    expect(npm(['init', '-y'], project).status).toBe(0);
    const install = npm(['install', '--offline', tarball], project);
    const how = install.status === 0 ? 'npm install --offline' : 'unpacked by hand';
    if (install.status !== 0) {
      // Only a cache without the dependencies' metadata is a reason to install by hand.
      expect(install.stderr).toContain('ENOTCACHED');
      installByHand(tarball, project);
    }
    console.log(`first run: the tarball was installed with ${how}`);
    // npm sets the bin's run bit at install; the tarball carries it too (harness/build/bundle.ts).
    expect(statSync(join(project, 'node_modules/mcp-crash-drill/dist/bin/crash-drill.js')).mode & 0o111).toBe(0o111);
    copyFileSync(join(ROOT, 'test/cli/fixtures/three-tools-server.mjs'), join(project, 'server.mjs'));

    const init = await npx(['init', 'node', 'server.mjs'], project);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toBe(
      [
        'wrote crash-drill.config.mjs and 4 scenarios (24 drills: each point in crash, close and hang):',
        '  scenarios/lifecycle.yaml  every tool (idle, pre-dispatch: the call is never written, so the tool does not matter)',
        '  scenarios/may-write/add-note.yaml  add-note (may write: in-flight, after-response)',
        '  scenarios/may-write/delete-note.yaml  delete-note (may write: in-flight, after-response)',
        '  scenarios/read-only/search.yaml  search (read-only: in-flight, after-response)',
        "sent and confirmed are left out of this first run: they need the server's writes to reach the drill remote (how: the comment at the end of each may-write scenario)",
        'Adjust the placeholder args in each scenario, then run: npx crash-drill run',
        '',
      ].join('\n'),
    );
    const addNote = readFileSync(join(project, 'scenarios/may-write/add-note.yaml'), 'utf8');
    expect(addNote).not.toMatch(/^remote:/m);
    expect(addNote).toContain('# points: [in-flight, sent, confirmed, after-response]\n# remote: {}\n');

    const started = Date.now();
    const run = await npx(['run'], project);
    const wallMs = Date.now() - started;
    const results = JSON.parse(readFileSync(join(project, 'crash-drill-report/results.json'), 'utf8'));
    const notJudged = results.drills.filter((d: { verdict: string }) => d.verdict === 'error' || d.verdict === 'unknown');
    expect(notJudged.map((d: { key: string; reason: string }) => `${d.key}: ${d.reason}`)).toEqual([]);
    // The lifecycle's 2 points + 3 tools x 2 points, each in 3 modes; a TypeScript SDK 1.x server
    // with no live handle exits on EOF, so every drill passes. No drill is left out as not repeated.
    expect(results.summary).toMatchObject({ pass: 24, fail: 0, unknown: 0, error: 0 });
    expect(results.notRepeated).toBeUndefined();
    expect(run.stdout).toMatch(/\n24 passed, 0 failed, 0 unknown\n$/);
    // A plain run writes the reports a person reads, says where they are, and ends with the server's cleanup expectation.
    for (const file of ['report.html', 'summary.md', 'results.json']) expect(existsSync(join(project, 'crash-drill-report', file)), file).toBe(true);
    expect(run.stdout).toContain('\nCleanup expectation:\n');
    expect(run.stdout).toMatch(/\n {2}stops accepting calls after its input closes +met\n/);
    expect(run.stdout).toContain(
      `\nReports in crash-drill-report/: report.html, summary.md, results.json\nOpen the HTML report: file://${project}/crash-drill-report/report.html\n`,
    );
    expect(run.code).toBe(0);
    expect(wallMs).toBeLessThan(60_000);
    console.log(`first run: ${results.drills.length} drills in ${wallMs} ms`);
    expect(markedProcesses(results.runId)).toEqual([]);

    // The other way: the lines init left commented out, put in as the comment says, on a server
    // whose writes never reach the remote, give exactly the unknowns the first run leaves out.
    const withRemote = addNote
      .replace(/^points: .*\n/m, '')
      .replace('# points: [in-flight', 'points: [in-flight')
      .replace('# remote: {}', 'remote: {}');
    writeFileSync(join(project, 'scenarios/may-write/add-note.yaml'), withRemote);
    const remote = await npx(['run', '--only', 'add-note', '--point', 'sent', '--mode', 'crash', '--out', 'with-remote'], project);
    const sent = JSON.parse(readFileSync(join(project, 'with-remote/results.json'), 'utf8'));
    expect(sent.drills.map((d: { key: string; verdict: string }) => `${d.key} ${d.verdict}`)).toEqual(['add-note/sent/crash unknown']);
    expect(remote.code).toBe(2);
    expect(markedProcesses(sent.runId)).toEqual([]);
    expect(readdirSync(project).sort()).toEqual([
      'crash-drill-report',
      'crash-drill.config.mjs',
      'node_modules',
      ...(how === 'npm install --offline' ? ['package-lock.json'] : []),
      'package.json',
      'scenarios',
      'server.mjs',
      'with-remote',
    ]);
  }, 180_000);
});
