/**
 * `crash-drill survey` end to end, on entries of survey/catalog.yaml from the survey's cache
 * (.ci/real-servers.sh installs them with `survey --install-only`): a published Node server and a
 * published Python server that clean up; kubernetes-mcp-server 0.0.67, a Go binary behind an npm
 * launcher that prints "Received SIGTERM, terminating child process..." on stdout when a client
 * signals the group; firecrawl-mcp 3.26.0, whose API base URL is each drill's remote, so its write
 * tool writes there; and the bundled leaks-child, which leaves its helper (a crash is EOF alone
 * under every client), also under the clients that abandon a server. Their cells are asserted
 * exactly, both ways. A catalog with a wrong field is refused before anything is written.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../harness/survey/catalog.js';
import { install, isInstalled } from '../../harness/survey/install.js';
import { loopbackUnavailable } from '../../harness/drill/network/namespace.js';
import type { SurveyTable } from '../../harness/survey/table.js';
import type { RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { missingPrerequisite } from '../support/prerequisite.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

const CATALOG = join(packageRoot(), 'survey/catalog.yaml');
/** In catalog order, the order of the table's rows. */
const IDS = ['server-memory', 'kubernetes-mcp-server', 'firecrawl', 'mcp-server-time', 'fake-leaks-child'];
/**
 * Two clients whose stop signals at once (codex: killpg SIGTERM; gemini-cli: SIGTERM to the direct
 * child), so no cell waits on a Python server's 1-2 s exit racing a 2 s ladder.
 */
const PROFILES = ['codex', 'gemini-cli'];

/** Whether every entry is in the cache (a look at its `.done`, nothing installed) and a loopback-only namespace can be made. */
async function cached(): Promise<string | null> {
  const missing = loadCatalog(CATALOG).servers.find((s) => IDS.includes(s.id) && !isInstalled(s));
  if (missing)
    return `${missing.registry} ${missing.package}@${missing.version} is not in the survey cache (.ci/real-servers.sh runs \`crash-drill survey --install-only\`)`;
  return loopbackUnavailable();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const netWhy = await loopbackUnavailable();
const why = await cached();
const skip =
  why === null
    ? null
    : missingPrerequisite('test/survey/survey.e2e.test.ts', why, {
        test: 'has the survey entries in the cache',
        requiredBy: 'CRASH_DRILL_REQUIRE_REAL_SERVERS=1',
        required: process.env.CRASH_DRILL_REQUIRE_REAL_SERVERS === '1',
      });

describe('crash-drill survey: a catalog with a wrong field', () => {
  it('is refused with the file, the field and what was expected, exit 3, and nothing is written', async () => {
    const dir = tempDir();
    const file = join(dir, 'catalog.yaml');
    writeFileSync(file, readFileSync(CATALOG, 'utf8').replace('version: 2026.8.31', 'version: latest'));
    const out = join(dir, 'out');
    const run = await runCli(['survey', '--catalog', file, '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/catalog\.yaml: servers\[3\]\.version: .*exact version such as 1\.2\.3/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an --only id the catalog does not hold, naming it', async () => {
    const out = join(tempDir(), 'out');
    const run = await runCli(['survey', '--only', 'no-such-server', '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--only: no entry "no-such-server"');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --render of a folder no survey drilled into, naming it, exit 3, and writes nothing there', async () => {
    const out = tempDir();
    const run = await runCli(['survey', '--render', '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`--out: ${out} holds no survey (no servers/ folder)`);
    expect(run.stderr).not.toMatch(/\bat /);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe.skipIf(skip !== null)('crash-drill survey of four cached entries and a bundled fake', () => {
  let run: CliRun;
  let table: SurveyTable;
  let out: string;

  beforeAll(async () => {
    // Found in the cache, installed nothing: install() says so without a registry.
    for (const entry of loadCatalog(CATALOG).servers.filter((s) => IDS.includes(s.id)))
      expect(await install(entry)).toMatchObject({ ok: true, fromCache: true });
    out = join(tempDir(), 'survey');
    run = await runCli(['survey', '--only', IDS.join(','), '--client-profile', PROFILES.join(','), '--parallel', '2', '--out', out]);
    table = JSON.parse(readFileSync(join(out, 'survey.json'), 'utf8')) as SurveyTable;
  }, 600_000);

  afterAll(async () => {
    for (const id of IDS) {
      const file = join(out, 'servers', id, 'run', 'results.json');
      if (!existsSync(file)) continue;
      const { runId } = JSON.parse(readFileSync(file, 'utf8')) as RunResults;
      await until(`no process of ${id}'s run`, () => markedProcesses(runId).length === 0);
    }
  });

  it('prints a line per server and its time, and exits 0', () => {
    expect(run.code).toBe(0);
    for (const [i, id] of IDS.entries()) expect(run.stdout).toMatch(new RegExp(`\\[${i + 1}/${IDS.length}\\] ${id}: [0-9.]+ s: `));
    expect(run.stdout).toMatch(/survey: 5 servers in [0-9.]+ s/);
  });

  it('with --parallel 2 drills two servers at once and keeps the rows in catalog order', () => {
    // Server 2 begins before server 1 is done: the two lanes start together.
    const lines = run.stdout.split('\n');
    const secondBegins = lines.findIndex((l) => l.startsWith(`[2/${IDS.length}] ${IDS[1]}: installing`));
    const firstDone = lines.findIndex((l) => new RegExp(`^\\[1/${IDS.length}\\] ${IDS[0]}: [0-9.]+ s: `).test(l));
    expect(secondBegins).toBeGreaterThan(-1);
    expect(firstDone).toBeGreaterThan(secondBegins);
    expect(table.rows.map((r) => r.id)).toEqual(IDS);
  });

  it("gives each server its cells, exactly: clean where it is, the launcher's stdout line only under the client that signals the group, the leak everywhere", () => {
    const cells = Object.fromEntries(table.rows.map((r) => [r.id, Object.fromEntries(PROFILES.map((p) => [p, r.cells[p as 'ts-sdk']!.text]))]));
    expect(cells).toEqual({
      'server-memory': { codex: 'clean', 'gemini-cli': 'clean' },
      'mcp-server-time': { codex: 'clean', 'gemini-cli': 'clean' },
      'kubernetes-mcp-server': { codex: 'stdout not clean', 'gemini-cli': 'clean' },
      firecrawl: { codex: 'clean', 'gemini-cli': 'clean' },
      'fake-leaks-child': { codex: 'leaves 1 process (node helper.js)', 'gemini-cli': 'leaves 1 process (node helper.js)' },
    });
  });

  it('reads the SDK and its version from each program', () => {
    const sdk = Object.fromEntries(table.rows.map((r) => [r.id, r.sdkRead]));
    expect(sdk['server-memory']).toMatch(/^@modelcontextprotocol\/sdk \d+\.\d+\.\d+/);
    expect(sdk['mcp-server-time']).toMatch(/(^|, )mcp \d+\.\d+\.\d+/);
    expect(sdk['fake-leaks-child']).toMatch(/^@modelcontextprotocol\/sdk 1\.32\.2/);
    // The launcher is a Node script with no SDK; the Go binary it starts is its child.
    expect(sdk['kubernetes-mcp-server']).toBe('node: no MCP SDK read');
  });

  it("links each finding to its evidence and writes the server's maintainer report with the reproduce command", () => {
    const row = table.rows.find((r) => r.id === 'fake-leaks-child')!;
    const cell = row.cells.codex!;
    expect(existsSync(join(out, cell.evidence!))).toBe(true);
    expect(cell.diagnosis?.fix).toContain('kill it');
    const report = readFileSync(join(out, row.report!), 'utf8');
    expect(report).toContain('npx -y mcp-crash-drill run --subject');
    expect(report).toContain('Incident record:');
    expect(table.rows.filter((r) => r.report !== null).map((r) => r.id)).toEqual(['kubernetes-mcp-server', 'fake-leaks-child']);
    expect(readFileSync(join(out, 'reports/kubernetes-mcp-server.md'), 'utf8')).toContain('Received SIGTERM, terminating child process...');
    // The table in short words, each finding in full after it, both linked to the evidence.
    const md = readFileSync(join(out, 'survey.md'), 'utf8');
    expect(md).toContain(`| [leaves 1](${cell.evidence}) |`);
    expect(md).toContain(`### fake-leaks-child\n\n- **leaves 1 process (node helper.js)**: every column ([evidence](${cell.evidence}))\n  - `);
    expect(md).toContain('### kubernetes-mcp-server\n\n- **stdout not clean**: codex (');
    expect(readFileSync(join(out, 'survey.html'), 'utf8')).toMatch(
      /<td style="background:#d7f5dd" title="clean"><a href="servers\/server-memory\/run\/evidence\/[^"]+\.jsonl">clean<\/a><\/td>/,
    );
  });

  it("drills a write tool against the drill's own remote as the server's API base URL, through the loopback-only network", () => {
    const results = JSON.parse(readFileSync(join(out, 'servers/firecrawl/run/results.json'), 'utf8')) as RunResults;
    const drills = results.drills.filter((d) => d.scenario === 'firecrawl-firecrawl_monitor_create');
    // Every drill ran, but a stop drill whose close drill's client quit with nothing left to reach (harness/plan/by-evidence.ts).
    const leftOut = (results.notRepeated ?? []).filter((n) => n.scenario === 'firecrawl-firecrawl_monitor_create');
    expect(leftOut.every((n) => n.byEvidence?.mode === 'stop' && n.sameAs === n.key.replace('/stop', '/close'))).toBe(true);
    expect([...drills.map((d) => `${d.clientProfile} ${d.mode}`), ...leftOut.map((n) => `${n.clientProfile} stop`)].sort()).toEqual(
      PROFILES.flatMap((p) => ['close', 'crash', 'stop'].map((m) => `${p} ${m}`)).sort(),
    );
    for (const d of drills) {
      const events = readFileSync(join(out, 'servers/firecrawl/run/evidence', d.evidence!.file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; mode?: string; entry?: Record<string, unknown> });
      expect(events.filter((e) => e.type === 'network')).toMatchObject([{ mode: 'loopback' }]);
      // The server's POST (npx's node grandchild sends it), with its session's token as the API key,
      // journalled by this drill's remote and tied to a process of this drill.
      const writes = events.filter((e) => e.type === 'remote' && e.entry?.kind === 'request' && e.entry.method === 'POST').map((e) => e.entry);
      expect(writes).toMatchObject([{ path: '/v2/monitor', credential: 'session', drillId: d.id, processDrillId: d.id }]);
    }
  });

  it('never writes the dummy secret, in a file or on the console', () => {
    const secret = loadCatalog(CATALOG).servers.find((s) => s.id === 'fake-leaks-child')!.secrets.FAKE_API_TOKEN!;
    expect(secret.length).toBeGreaterThan(20);
    expect(run.stdout + run.stderr).not.toContain(secret);
    const holding = filesUnder(out).filter((f) => readFileSync(f, 'latin1').includes(secret));
    expect(holding).toEqual([]);
  });
});

describe.skipIf(netWhy !== null)('crash-drill survey under clients that abandon a server', () => {
  it('gives each abandoning profile its own column: the abandon mode, or a stop that is the abandon', async () => {
    const out = join(tempDir(), 'survey');
    const run = await runCli(['survey', '--only', 'fake-leaks-child', '--client-profile', 'codex,claude-code-reconnect,claude-desktop', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const table = JSON.parse(readFileSync(join(out, 'survey.json'), 'utf8')) as SurveyTable;
    expect(table.abandoning).toEqual(['claude-code-reconnect', 'claude-desktop']);
    const [row] = table.rows;
    const texts = (cells: Partial<Record<string, { text: string }>> | undefined) =>
      Object.fromEntries(Object.entries(cells ?? {}).map(([p, c]) => [p, c!.text]));
    // Told to go, the server goes and its helper stays; abandoned, both stay.
    expect(texts(row!.cells)).toEqual({
      codex: 'leaves 1 process (node helper.js)',
      'claude-code-reconnect': 'leaves 1 process (node helper.js)',
      'claude-desktop': 'leaves 1 process (node helper.js)',
    });
    expect(texts(row!.abandoned)).toEqual({
      'claude-code-reconnect': 'leaves 2 processes (node helper.js, node leaks-child.js)',
      'claude-desktop': 'leaves 2 processes (node helper.js, node leaks-child.js)',
    });
    expect(row!.abandoned!['claude-code-reconnect']!.shownBy).toContain('lifecycle idle/abandon');
    expect(row!.abandoned!['claude-desktop']!.shownBy).toContain('lifecycle idle/stop');
    expect(row!.cells['claude-desktop']!.shownBy.filter((s) => s.endsWith('/stop'))).toEqual([]);
    const abandonRun = JSON.parse(readFileSync(join(out, 'servers/fake-leaks-child/run-abandon/results.json'), 'utf8')) as RunResults;
    expect([...new Set(abandonRun.drills.map((d) => `${d.clientProfile} ${d.mode}`))]).toEqual(['claude-code-reconnect abandon']);
    expect(readFileSync(join(out, 'survey.md'), 'utf8')).toContain(
      '| codex | claude-code-reconnect | claude-desktop | claude-code-reconnect: abandon | claude-desktop: abandon |',
    );
    await until('no process of the abandon run', () => markedProcesses(abandonRun.runId).length === 0);
  }, 300_000);
});
