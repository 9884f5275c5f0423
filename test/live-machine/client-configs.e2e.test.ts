// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * Orphans named by the client configuration that launched them. A server is started exactly as
 * each entry of the fixture home describes it (Claude Desktop, Claude Code's .mcp.json and
 * ~/.claude.json, Cursor's project and user files, VS Code's mcp.json and user settings,
 * Windsurf, Codex TOML, Gemini CLI, Zed; none has "mcp" in its command line), its client is
 * SIGKILLed, and a plain `crash-drill orphans` finds it with the right client and entry; without
 * the configurations none is found. A process like an entry but with other args, and one like no
 * entry at all, are not listed, and `--all` says why. A process that only a pattern counts says
 * so and ranks below every configured one, although it reaches more. No env value of any fixture
 * appears in any output or evidence file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredentialName } from '../../harness/util/secrets.js';
import type { OrphanEntry, OrphanReport } from '../../harness/live-machine/find-orphans.js';
import { ENV_VALUES, FIXTURES, fixtureHome, type FixtureHome } from '../mcp-clients/fixture-home.js';
import type { CliRun } from '../support/cli.js';
import { fixtureCli, killClient, launchClient } from '../support/clients.js';
import { cleanup, env } from './helpers.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
const PATTERN_TOKEN = 'pattern-only-fixture-value-7531';
const SECRETS = [...Object.values(ENV_VALUES), PATTERN_TOKEN];

interface Launched {
  name: string;
  server: number;
  kill(): Promise<void>;
}

let fx: FixtureHome;
const launched = new Map<string, Launched>();
const outputs: CliRun[] = [];

/**
 * A client spawning one entry as its configuration says; resolves once the server is up. The
 * client's environment has no credential-named variable of the test runner's own, so only the
 * entries' env gives a server a credential (the ranking below depends on which have one).
 */
async function launch(name: string, spec: { command: string; args: string[]; cwd: string; env?: Record<string, string> }): Promise<Launched> {
  const base = env();
  for (const k of Object.keys(base)) if (isCredentialName(k)) delete base[k];
  const launched = await launchClient(join(FIXTURES, 'config-client.mjs'), [JSON.stringify(spec)], { env: base, what: name, timeoutMs: 60_000 });
  return { name, server: launched.server.pid, kill: async () => void (await killClient(launched)) };
}

async function cli(args: string[], extra: string[] = []): Promise<CliRun> {
  const run = await fixtureCli(fx, [...args, ...extra]);
  outputs.push(run);
  return run;
}

const node = (name: string, args: string[], cwd: string, entryEnv: Record<string, string> = {}) => launch(name, { command: 'node', args, cwd, env: entryEnv });

beforeAll(async () => {
  fx = fixtureHome();
  const v = ENV_VALUES;
  const s = fx.servers;
  // Counted by a default pattern only ("mcp" in its file name), with a credential: it reaches more than npx-server.
  mkdirSync(join(fx.root, 'pattern'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(fx.root, 'pattern', 'mcp-helper.js'));
  const specs = [
    // Claude Desktop
    node('filesystem', [join(s, 'server.js'), '--root', fx.project], fx.root, { GITHUB_TOKEN: v.GITHUB_TOKEN, LOG_LEVEL: v.LOG_LEVEL }),
    // VS Code: the workspace's .vscode/mcp.json (${input:profile} typed in) and the user settings.json
    node('workspace-tool', [`${fx.project}/tools/server.js`, '--profile', 'work'], fx.project, { API_KEY: v.TYPED_API_KEY }),
    node('settings-server', ['settings.js'], s, { SETTINGS_TOKEN: v.SETTINGS_TOKEN }),
    // Claude Code: the project's .mcp.json, and ~/.claude.json's user and local scopes
    node('team-server', ['./tools/server.js', '--team', 'core'], fx.project, { TEAM_TOKEN: v.TEAM_TOKEN_VALUE }),
    node('user-server', [join(s, 'server.js'), '--user'], fx.root),
    node('local-server', ['tools/server.js', '--local'], fx.project, { LOCAL_SECRET: v.LOCAL_SECRET }),
    // Cursor: the user file (${userHome}) and the project's npx entry: npx -> npm exec -> sh -c -> node <bin>, with an npm cache of the test's own
    node('cursor-server', [join(fx.home, 'cursor.js')], fx.home),
    launch('npx-server', {
      command: 'npx',
      args: ['--yes', '--offline', join(s, 'tiny-server')],
      cwd: fx.project,
      env: { npm_config_cache: join(fx.root, 'npm-cache'), npm_config_update_notifier: 'false' },
    }),
    // Windsurf, Codex (node; python below), Gemini CLI (its cwd relative to ~/.gemini), Zed (current and older form)
    node('windsurf-server', ['windsurf.js'], s, { WINDSURF_KEY: v.WINDSURF_KEY }),
    node('indexer', ['indexer.js', '--watch'], s, { INDEXER_TOKEN: v.INDEXER_TOKEN }),
    node('gemini-server', ['gemini.js'], join(fx.home, '.gemini', 'gemini'), { GEMINI_API_KEY: v.GEMINI_API_KEY }),
    node('zed-server', ['zed.js'], s, { ZED_TOKEN: v.ZED_TOKEN }),
    node('zed-legacy', ['legacy.js'], s),
    // Like team-server, one arg off: no entry, no pattern.
    node('near-miss', ['./tools/server.js', '--team', 'ops'], fx.project),
    // Like nothing configured: a program no entry starts, no pattern names.
    launch('unrelated', { command: 'sh', args: ['-c', 'echo server-up >&2; exec sleep 3600'], cwd: fx.root }),
    node('pattern-only', [join(fx.root, 'pattern', 'mcp-helper.js')], fx.root, { PATTERN_TOKEN }),
  ];
  // Paths with spaces, as on macOS (~/Library/Application Support, /Applications/My App.app), in a file given with --client-config.
  mkdirSync(join(fx.root, 'App Support'));
  mkdirSync(join(fx.root, 'My Tools'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(fx.root, 'App Support', 'server.js'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(fx.root, 'My Tools', 'srv'));
  chmodSync(join(fx.root, 'My Tools', 'srv'), 0o755);
  const spacedArgs = [join(fx.root, 'App Support', 'server.js'), '--name', 'two words'];
  mkdirSync(join(fx.root, 'spaced'));
  writeFileSync(
    join(fx.root, 'spaced', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: { 'spaced-args': { command: 'node', args: spacedArgs }, 'spaced-command': { command: join(fx.root, 'My Tools', 'srv'), args: ['--x'] } },
    }),
  );
  specs.push(node('spaced-args', spacedArgs, fx.root), launch('spaced-command', { command: join(fx.root, 'My Tools', 'srv'), args: ['--x'], cwd: fx.root }));
  // A second project whose .mcp.json starts the same command line as team-server's, from its own folder.
  const other = join(fx.root, 'other-project');
  mkdirSync(join(other, 'tools'), { recursive: true });
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(other, 'tools', 'server.js'));
  writeFileSync(join(other, '.mcp.json'), JSON.stringify({ mcpServers: { 'other-team': { command: 'node', args: ['./tools/server.js', '--team', 'core'] } } }));
  specs.push(node('other-team', ['./tools/server.js', '--team', 'core'], other));
  if (hasPython) specs.push(launch('notes', { command: 'python3', args: ['server.py', '--notes'], cwd: s, env: { NOTES_API_KEY: v.NOTES_API_KEY } }));
  for (const l of await Promise.all(specs)) launched.set(l.name, l);
  await Promise.all([...launched.values()].map((l) => l.kill()));
}, 120_000);

afterAll(async () => {
  await cleanup();
  fx.remove();
}, 30_000);

const pid = (name: string) => launched.get(name)!.server;
const EXACT = 'command and args match exactly';

/** Entry name, client, how it matched: every client of the fixture home. */
const expected = () => [
  ['filesystem', 'claude-desktop', EXACT],
  ['workspace-tool', 'vscode', `${EXACT}; \${input:profile} matched any value`],
  ['settings-server', 'vscode', EXACT],
  ['team-server', 'claude-code', EXACT],
  ['user-server', 'claude-code', EXACT],
  ['local-server', 'claude-code', EXACT],
  ['cursor-server', 'cursor', EXACT],
  ['npx-server', 'cursor', 'npx launcher: `npm exec` with the package and args match exactly'],
  ['windsurf-server', 'windsurf', EXACT],
  ['indexer', 'codex', EXACT],
  ['gemini-server', 'gemini', EXACT],
  ['zed-server', 'zed', EXACT],
  ['zed-legacy', 'zed', EXACT],
  ...(hasPython ? [['notes', 'codex', expect.stringMatching(/^command and args match exactly(; python3 started as \S+)?$/)]] : []),
];

function find(report: OrphanReport, name: string): OrphanEntry | undefined {
  return report.entries.find((e) => e.pid === pid(name));
}

describe('orphans matched to client configurations', () => {
  it('a plain `orphans --json` finds each by client and entry, with no pattern, none with "mcp" in its command line', async () => {
    const run = await cli(['orphans', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as OrphanReport;
    for (const [name, client, how] of expected()) {
      // The client's child is the session's top (npm exec for npx); the server may be below it.
      const entry = find(report, name as string);
      expect(entry, name as string).toBeDefined();
      expect(entry!.classification).toBe('client-gone');
      expect(entry!.configured.map((c) => [c.name, c.client, c.how])).toEqual([[name, client, how]]);
      expect(entry!.serverEvidence).toEqual([]);
      for (const c of entry!.chain) expect(c.command, name as string).not.toMatch(/mcp/i);
    }
    expect(find(report, 'near-miss')).toBeUndefined();
    expect(find(report, 'unrelated')).toBeUndefined();
    const npx = find(report, 'npx-server')!;
    expect(npx.chain.map((c) => c.launcher)).toEqual([true, true, false]);
    expect(npx.command.trimEnd()).toBe(`npm exec ${join(fx.servers, 'tiny-server')}`);
    expect(npx.server.pid).toBe(npx.chain[2]!.pid);
    expect(npx.server.command).toMatch(/^node \S+\/node_modules\/\.bin\/tiny-server$/);
    expect(report.clientConfigs.problems).toEqual([
      `${join(fx.project, '.mcp.json')}: mcpServers.win-only.command: is a Windows path: it cannot start on this machine, so it matches no process here`,
    ]);
  });

  it('a match by configuration ranks above a match by pattern, even one that reaches more; the pattern-only one says so', async () => {
    const report = JSON.parse((await cli(['orphans', '--json'])).stdout) as OrphanReport;
    const patternOnly = find(report, 'pattern-only')!;
    expect(patternOnly.configured).toEqual([]);
    expect(patternOnly.serverEvidence).toEqual([`${pid('pattern-only')}: command matches default pattern "mcp"`]);
    expect(patternOnly.reach.credentials).toEqual(['PATTERN_TOKEN']);
    const npx = find(report, 'npx-server')!;
    expect(npx.reach.credentials).toEqual([]);
    const at = (e: OrphanEntry) => report.entries.indexOf(e);
    for (const [name] of expected()) expect(at(find(report, name as string)!), name as string).toBeLessThan(at(patternOnly));
    // The other way: counted by a pattern too, npx-server ranks by reach, below the one with a credential.
    const patterns = JSON.parse((await cli(['orphans', '--json', '--no-client-configs', '--match', 'tiny-server'])).stdout) as OrphanReport;
    const npxByPattern = find(patterns, 'npx-server')!;
    expect(npxByPattern.configured).toEqual([]);
    expect(patterns.entries.indexOf(npxByPattern)).toBeGreaterThan(patterns.entries.indexOf(find(patterns, 'pattern-only')!));
  });

  it('a plain `orphans` says it in the text: "claude-desktop: filesystem (command and args match exactly)", "codex: indexer (...)", and "a server pattern only"', async () => {
    const run = await cli(['orphans']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const block = (name: string): string[] => {
      const header = lines.findIndex((l) => l.startsWith(`CLIENT-GONE  pid ${pid(name)} `));
      expect(header, name).toBeGreaterThanOrEqual(0);
      const next = lines.findIndex((l, i) => i > header && /^[A-Z-]+ {2}pid /.test(l));
      return lines.slice(header + 1, next < 0 ? undefined : next);
    };
    expect(block('filesystem').filter((l) => l.startsWith('  configured: '))).toEqual([
      `  configured: claude-desktop: filesystem (${EXACT}), pid ${pid('filesystem')}; ${join(fx.xdg, 'Claude', 'claude_desktop_config.json')}; env names: GITHUB_TOKEN, LOG_LEVEL`,
    ]);
    expect(block('indexer').filter((l) => l.startsWith('  configured: '))).toEqual([
      `  configured: codex: indexer (${EXACT}), pid ${pid('indexer')}; ${join(fx.home, '.codex', 'config.toml')}; env names: INDEXER_TOKEN`,
    ]);
    if (hasPython)
      expect(block('notes').find((l) => l.startsWith('  configured: '))).toMatch(
        new RegExp(`^  configured: codex: notes \\(${EXACT}(; python3 started as \\S+)?\\), pid ${pid('notes')}; .*; env names: HOME_REGION, NOTES_API_KEY$`),
      );
    expect(block('pattern-only')).toContain('  configured: no client configuration entry matches it; counted by a server pattern only');
    expect(block('pattern-only')).toContain(`  MCP server: ${pid('pattern-only')}: command matches default pattern "mcp"`);
    expect(lines).toContain('client configurations: 11 files read, 14 stdio entries');
  });

  it('the ps + lsof backend (macOS has no /proc), which sees one command line, matches entries whose paths and args hold spaces', async () => {
    const spaced = join(fx.root, 'spaced', 'claude_desktop_config.json');
    for (const backend of ['ps-lsof', 'proc']) {
      const report = JSON.parse((await cli(['orphans', '--json', '--backend', backend, '--client-config', spaced])).stdout) as OrphanReport;
      expect(report.backend).toBe(backend);
      expect(
        find(report, 'spaced-args')?.configured.map((c) => [c.client, c.name, c.how]),
        backend,
      ).toEqual([['claude-desktop', 'spaced-args', EXACT]]);
      expect(
        find(report, 'spaced-command')?.configured.map((c) => [c.client, c.name, c.how]),
        backend,
      ).toEqual([['claude-desktop', 'spaced-command', 'script and args match exactly (run by its interpreter node)']]);
      expect(
        find(report, 'filesystem')?.configured.map((c) => c.name),
        backend,
      ).toEqual(['filesystem']);
    }
    // Without their file they are nothing: no pattern names them.
    const without = JSON.parse((await cli(['orphans', '--json', '--backend', 'ps-lsof'])).stdout) as OrphanReport;
    expect(find(without, 'spaced-args')).toBeUndefined();
  });

  it("two projects' entries with one command line: each process is named by the entry of the folder it runs in", async () => {
    const otherFile = join(fx.root, 'other-project', '.mcp.json');
    const report = JSON.parse((await cli(['orphans', '--json', '--client-config', otherFile])).stdout) as OrphanReport;
    const why = `${EXACT}; it runs in this entry's folder (1 other entry starts the same command line elsewhere)`;
    expect(find(report, 'team-server')?.configured.map((c) => [c.name, c.file, c.how])).toEqual([['team-server', join(fx.project, '.mcp.json'), why]]);
    expect(find(report, 'other-team')?.configured.map((c) => [c.name, c.file, c.how])).toEqual([['other-team', otherFile, why]]);
    // The ps + lsof backend does not read folders: both entries are named, as both match.
    const ps = JSON.parse((await cli(['orphans', '--json', '--backend', 'ps-lsof', '--client-config', otherFile])).stdout) as OrphanReport;
    expect(find(ps, 'other-team')?.configured.map((c) => c.name)).toEqual(['team-server', 'other-team']);
  });

  it('a bad --client-config is one line and the scan goes on', async () => {
    const bad = join(fx.root, 'broken.json');
    writeFileSync(bad, '{ "mcpServers": { "x": ');
    const run = await cli(['orphans', '--client-config', bad]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines.filter((l) => l.includes(bad))).toEqual([`client config: ${bad}: expected JSON (comments allowed), found ValueExpected at line 1, column 24`]);
    expect(run.stdout).toContain(`CLIENT-GONE  pid ${pid('team-server')} `);
    expect(run.stdout).toContain(`  configured: claude-desktop: filesystem (${EXACT}), pid ${pid('filesystem')}`);
  });

  it('without the configurations they are not MCP servers at all (no pattern matches them)', async () => {
    const report = JSON.parse((await cli(['orphans', '--json', '--no-client-configs'])).stdout) as OrphanReport;
    for (const [name] of expected())
      expect(
        report.entries.some((e) => e.server.pid === pid(name as string)),
        name as string,
      ).toBe(false);
    expect(find(report, 'pattern-only')).toBeDefined();
    expect(report.clientConfigs).toEqual({ files: [], entries: 0, problems: [] });
  });

  it('--all lists the near miss and the unrelated process as not counted, and says why', async () => {
    const report = JSON.parse((await cli(['orphans', '--json', '--all'])).stdout) as OrphanReport;
    expect(report.entries.some((e) => e.server.pid === pid('near-miss'))).toBe(false);
    expect(report.uncounted.find((u) => u.pid === pid('near-miss'))?.why).toBe(
      'its client is gone, but it matches no client configuration entry (claude-code: team-server starts node too, but args[2] differs (the entry has 3 args, the process 3)) and no server pattern, and carries no drill marker: not counted as an MCP server',
    );
    expect(report.uncounted.find((u) => u.pid === pid('unrelated'))).toEqual({
      pid: pid('unrelated'),
      startTime: expect.any(Number),
      command: 'sleep 3600',
      why: 'its client is gone, but it matches no client configuration entry and no server pattern, and carries no drill marker: not counted as an MCP server',
    });
    // The configured ones are counted, so never in that list.
    for (const [name] of expected()) expect(report.uncounted.some((u) => u.pid === pid(name as string))).toBe(false);
    const text = await cli(['orphans', '--all']);
    expect(text.stdout).toContain(`NOT COUNTED  pid ${pid('unrelated')} `);
  });

  it('inspect and contain name the entry too, in their output and their evidence logs', async () => {
    const out = join(fx.root, 'evidence-out');
    const inspect = await cli(['inspect', String(pid('team-server')), '--out', out]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain(
      `configured: claude-code: team-server (${EXACT}), pid ${pid('team-server')}; ${join(fx.project, '.mcp.json')}; env names: TEAM_TOKEN`,
    );
    const nearMiss = await cli(['inspect', String(pid('near-miss'))]);
    expect(nearMiss.stdout).toContain('configured: no client configuration entry matches it or its launchers');
    const contain = await cli(['contain', String(pid('workspace-tool')), '--wait', '5', '--out', out]);
    expect(contain.code).toBe(0);
    expect(contain.stdout).toContain(`  configured: vscode: workspace-tool (${EXACT}; \${input:profile} matched any value), pid ${pid('workspace-tool')}`);
    expect(contain.stdout).toMatch(/^contain \d+: CONTAINED: /);
    const logs = readdirSync(join(out, 'evidence')).sort();
    expect(logs.map((f) => f.replace(/-\d+\.jsonl$/, ''))).toEqual([`pid-${pid('team-server')}`, `pid-${pid('workspace-tool')}`].sort());
    const evidence = logs.map((f) => readFileSync(join(out, 'evidence', f), 'utf8')).join('\n');
    expect(evidence).toContain('"team-server"');
    expect(evidence).toContain('"workspace-tool"');
    outputs.push({ code: 0, signal: null, stdout: evidence, stderr: '' });
  });

  it('no env value of any fixture appears in any output or evidence file', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(12);
    const all = outputs.map((o) => o.stdout + o.stderr).join('\n');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    // Proven the other way: the values were there to leak, in the servers' environments.
    expect(readFileSync(`/proc/${pid('filesystem')}/environ`, 'utf8')).toContain(`GITHUB_TOKEN=${ENV_VALUES.GITHUB_TOKEN}`);
    expect(readFileSync(`/proc/${pid('indexer')}/environ`, 'utf8')).toContain(`INDEXER_TOKEN=${ENV_VALUES.INDEXER_TOKEN}`);
    expect(readFileSync(`/proc/${pid('pattern-only')}/environ`, 'utf8')).toContain(`PATTERN_TOKEN=${PATTERN_TOKEN}`);
  });
});
