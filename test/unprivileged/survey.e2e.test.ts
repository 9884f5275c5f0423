/**
 * `crash-drill survey` as an ordinary user (uid 65534): its servers' listings and drills run in a
 * user namespace owning a loopback-only network (docs/network.md), and the cells are exactly what
 * root's survey gives (test/survey/survey.e2e.test.ts): a published Python server from the survey's
 * cache that cleans up, and the bundled leaks-child that leaves its helper. Where the kernel makes
 * no namespace the survey refuses before anything is written, exit 3.
 *
 * The cache is the one .ci/real-servers.sh filled as root, read in place: a pypi entry's venv runs
 * its Python by absolute path. When a folder above the cache or that Python is closed to the user
 * (root's home), the CLI runs in a private mount namespace where a tmpfs covers that folder and
 * only the cache and the Python are bound back, at their own paths, read as they are.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackUnavailable } from '../../harness/drill/network/namespace.js';
import { surveyCacheRoot } from '../../harness/survey/cache.js';
import { loadCatalog } from '../../harness/survey/catalog.js';
import { install, isInstalled } from '../../harness/survey/install.js';
import type { SurveyTable } from '../../harness/survey/table.js';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, collect } from '../support/cli.js';
import { withoutNamespaces } from '../support/network.js';
import { missingPrerequisite } from '../support/prerequisite.js';
import { tempDir } from '../support/temp-dir.js';
import { NOBODY, unprivileged } from '../support/unprivileged.js';

const CATALOG = join(packageRoot(), 'survey/catalog.yaml');
const IDS = ['mcp-server-time', 'fake-leaks-child'];
/** An npm entry, from the same cache, which this user may read but not write: npx cannot use it. */
const NPM_ID = 'server-memory';
const PROFILES = ['codex', 'gemini-cli'];
const isRoot = process.getuid?.() === 0;
const drop = isRoot ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'] : [];

const u = unprivileged();
const entries = loadCatalog(CATALOG).servers.filter((s) => IDS.includes(s.id) || s.id === NPM_ID);
const notCached = entries.find((s) => !isInstalled(s));
const why = !u.available
  ? u.reason
  : notCached
    ? `${notCached.registry} ${notCached.package}@${notCached.version} is not in the survey cache (.ci/real-servers.sh runs \`crash-drill survey --install-only\`)`
    : await loopbackUnavailable();
const skip =
  why === null
    ? null
    : missingPrerequisite('test/unprivileged/survey.e2e.test.ts', why, {
        test: 'has the survey entries in the cache',
        requiredBy: 'CRASH_DRILL_REQUIRE_REAL_SERVERS=1',
        required: process.env.CRASH_DRILL_REQUIRE_REAL_SERVERS === '1',
      });

/** Whether the user can reach `path` (every folder on the way searchable). */
function reachable(path: string): boolean {
  const [command, ...argv] = [...drop, 'test', '-x', path];
  return spawnSync(command!, argv, { stdio: 'ignore' }).status === 0;
}

/** The highest folder on the way to `path` the user cannot search, or null. */
function closedAbove(path: string): string | null {
  const parts = path.split(sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = sep + parts.slice(0, i).join(sep);
    if (!reachable(dir)) return dir;
  }
  return null;
}

/** The Python installation a pypi entry's venv runs (pyvenv.cfg's `home` is its bin folder). */
function venvPython(program: string): string {
  const cfg = readFileSync(join(dirname(dirname(program)), 'pyvenv.cfg'), 'utf8');
  return dirname(/^home = (.+)$/m.exec(cfg)![1]!.trim());
}

// The package copy (when the checkout is closed to the user) serves both groups below: removed after both.
afterAll(() => {
  if (u.available) u.cleanup();
});

describe.skipIf(skip !== null)('crash-drill survey as an ordinary user', () => {
  if (!u.available) return;
  let run: CliRun;
  let table: SurveyTable;
  let out: string;
  /** Runs the CLI as the user, the cache and its Python reachable (above). */
  let asUser: (args: string[], cwd: string) => Promise<CliRun>;

  beforeAll(async () => {
    const cache = surveyCacheRoot();
    const inst = await install(entries.find((e) => e.id === 'mcp-server-time')!);
    if (!inst.ok || inst.program === null) throw new Error('mcp-server-time is not installed in the survey cache');
    const python = venvPython(inst.program);
    const needed = [cache, python];
    const closed = [...new Set(needed.map(closedAbove).filter((d): d is string => d !== null))];
    const prefix: string[] = [];
    if (closed.length > 0) {
      if (!isRoot) throw new Error(`${closed.join(', ')} is closed to this user: the survey cache must be the user's own`);
      // Each needed folder is bound aside, its closed folder covered, and the folder bound back at its own path.
      const aside = tempDir('crash-drill-aside-');
      const lines = [
        'set -e',
        ...needed.flatMap((dir, i) => [`mkdir -p '${aside}/${i}'`, `mount --bind '${dir}' '${aside}/${i}'`]),
        ...closed.map((dir) => `mount -t tmpfs -o mode=755 tmpfs '${dir}'`),
        ...needed.flatMap((dir, i) => [`mkdir -p '${dir}'`, `mount --bind '${aside}/${i}' '${dir}'`]),
        'exec "$@"',
      ];
      prefix.push('unshare', '--mount', '--propagation', 'private', 'sh', '-c', lines.join('\n'), 'sh');
    }
    const home = u.workDir();
    asUser = (args, cwd) => {
      const [command, ...argv] = [...prefix, ...drop, process.execPath, join(u.root, 'dist/bin/crash-drill.js'), ...args];
      return collect(
        spawn(command!, argv, { cwd, env: { ...process.env, NO_COLOR: '1', HOME: home, CRASH_DRILL_SURVEY_CACHE: cache }, stdio: ['ignore', 'pipe', 'pipe'] }),
      );
    };
    const dir = u.workDir();
    copyFileSync(CATALOG, join(dir, 'catalog.yaml'));
    out = join(dir, 'survey');
    run = await asUser(
      ['survey', '--catalog', join(dir, 'catalog.yaml'), '--only', [...IDS, NPM_ID].join(','), '--client-profile', PROFILES.join(','), '--out', out],
      dir,
    );
    table = JSON.parse(readFileSync(join(out, 'survey.json'), 'utf8')) as SurveyTable;
  }, 600_000);

  it('drills each cached entry in a user namespace, with the same cells as root', () => {
    expect(run.code, run.stderr).toBe(0);
    const cells = Object.fromEntries(table.rows.map((r) => [r.id, Object.fromEntries(PROFILES.map((p) => [p, r.cells[p as 'codex']!.text]))]));
    // Root's cache, read in place: npx would fail ENOTCACHED, so the npm entry says why before any drill.
    const refused = `could not start: install failed: npx cannot use the survey cache's npm folder ${join(surveyCacheRoot(), 'npm-cache')}: this user may not write there, and npx reads a package from it offline only where it may (ENOTCACHED); survey with a cache of your own (CRASH_DRILL_SURVEY_CACHE, filled once by survey --install-only)`;
    expect(cells).toEqual({
      [NPM_ID]: { codex: refused, 'gemini-cli': refused },
      'mcp-server-time': { codex: 'clean', 'gemini-cli': 'clean' },
      'fake-leaks-child': { codex: 'leaves 1 process (node helper.js)', 'gemini-cli': 'leaves 1 process (node helper.js)' },
    });
    const events = readFileSync(join(out, table.rows.find((r) => r.id === 'mcp-server-time')!.cells.codex!.evidence!), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; mode?: string; kind?: string });
    expect(events.filter((e) => e.type === 'network')).toMatchObject([{ mode: 'loopback', kind: 'user' }]);
  });
});

describe.skipIf(!u.available)('crash-drill survey where no namespace can be made', () => {
  it('refuses before anything is installed or written, saying why, exit 3; --network host is the way out', async () => {
    if (!u.available) return;
    const dir = u.workDir();
    const out = join(dir, 'survey');
    copyFileSync(CATALOG, join(dir, 'catalog.yaml'));
    const limited = (args: string[]) => {
      const cli = [process.execPath, join(u.root, 'dist/bin/crash-drill.js'), 'survey', '--only', 'fake-leaks-child', '--client-profile', 'codex'];
      const [command, ...argv] = withoutNamespaces([...cli, '--catalog', join(dir, 'catalog.yaml'), ...args]);
      return collect(spawn(command!, argv, { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    };
    const refused = await limited(['--out', out]);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(
      "crash-drill survey: network loopback (the survey's default): no loopback-only network can be made here for the servers under drill",
    );
    expect(refused.stderr).toContain('(unshare: ENOSPC)');
    expect(refused.stderr).toContain('--network host runs them on the host');
    expect(existsSync(out)).toBe(false);
    const hostOut = join(dir, 'host');
    const way = await limited(['--network', 'host', '--out', hostOut]);
    expect(way.code, way.stderr).toBe(0);
    const table = JSON.parse(readFileSync(join(hostOut, 'survey.json'), 'utf8')) as SurveyTable;
    expect(table.rows.map((r) => r.cells.codex!.text)).toEqual(['leaves 1 process (node helper.js)']);
  }, 120_000);
});
