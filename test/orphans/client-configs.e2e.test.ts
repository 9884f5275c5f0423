// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * Orphans named by the client configuration that launched them. Servers started exactly as a
 * fixture Claude Desktop config, Codex TOML, VS Code mcp.json and Claude Code .mcp.json
 * describe them (none has "mcp" in its command line), their clients SIGKILLed, then found by a
 * plain `crash-drill orphans` with the right client and entry; and not found without the
 * configurations. A process like an entry but with other args is not listed, and `--all` says
 * why. No env value of any fixture appears in any output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrphanReport } from '../../harness/orphans/find-orphans.js';
import { ENV_VALUES, FIXTURES, fixtureHome, type FixtureHome } from '../mcp-clients/fixture-home.js';
import { runCli, type CliRun } from '../support/cli.js';
import { until } from '../support/until.js';
import { cleanup, env } from './helpers.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
const SECRETS = Object.values(ENV_VALUES);

interface Launched {
  name: string;
  server: number;
  kill(): Promise<void>;
}

let fx: FixtureHome;
const launched = new Map<string, Launched>();
const outputs: CliRun[] = [];

/** A client spawning one entry as its configuration says; resolves once the server is up. */
async function launch(name: string, spec: { command: string; args: string[]; cwd: string; env?: Record<string, string> }): Promise<Launched> {
  const child = spawn(process.execPath, [join(FIXTURES, 'config-client.mjs'), JSON.stringify(spec)], { env: env(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const m = await until(`client-up from ${name}`, () => /client-up (\d+) (\d+)/.exec(out), 30_000);
  const kill = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  return { name, server: Number(m[2]), kill };
}

async function cli(args: string[], extra: string[] = []): Promise<CliRun> {
  const run = await runCli([...args, ...extra], { cwd: fx.project, env: { ...fx.env, TEAM_NAME: '', FIXTURE_REGION: '' } });
  outputs.push(run);
  return run;
}

beforeAll(async () => {
  fx = fixtureHome();
  const specs = [
    launch('filesystem', {
      command: 'node',
      args: [join(fx.servers, 'server.js'), '--root', fx.project],
      cwd: fx.root,
      env: { GITHUB_TOKEN: ENV_VALUES.GITHUB_TOKEN, LOG_LEVEL: ENV_VALUES.LOG_LEVEL },
    }),
    launch('workspace-tool', {
      command: 'node',
      args: [`${fx.project}/tools/server.js`, '--profile', 'work'],
      cwd: fx.project,
      env: { API_KEY: ENV_VALUES.TYPED_API_KEY },
    }),
    launch('team-server', {
      command: 'node',
      args: ['./tools/server.js', '--team', 'core'],
      cwd: fx.project,
      env: { TEAM_TOKEN: ENV_VALUES.TEAM_TOKEN_VALUE },
    }),
    // npx -> npm exec -> sh -c -> node <bin>, with an npm cache of the test's own.
    launch('npx-server', {
      command: 'npx',
      args: ['--yes', '--offline', join(fx.servers, 'tiny-server')],
      cwd: fx.project,
      env: { npm_config_cache: join(fx.root, 'npm-cache'), npm_config_update_notifier: 'false' },
    }),
    // Like team-server, one arg off: no entry, no pattern.
    launch('near-miss', { command: 'node', args: ['./tools/server.js', '--team', 'ops'], cwd: fx.project }),
  ];
  if (hasPython)
    specs.push(launch('notes', { command: 'python3', args: ['server.py', '--notes'], cwd: fx.servers, env: { NOTES_API_KEY: ENV_VALUES.NOTES_API_KEY } }));
  for (const l of await Promise.all(specs)) launched.set(l.name, l);
  await Promise.all([...launched.values()].map((l) => l.kill()));
}, 90_000);

afterAll(async () => {
  await cleanup();
  fx.remove();
}, 30_000);

const pid = (name: string) => launched.get(name)!.server;

describe('orphans matched to client configurations', () => {
  const expected = () => [
    ['filesystem', 'claude-desktop', 'command and args match exactly'],
    ['workspace-tool', 'vscode', 'command and args match exactly; ${input:profile} matched any value'],
    ['team-server', 'claude-code', 'command and args match exactly'],
    ['npx-server', 'cursor', 'npx launcher: `npm exec` with the package and args match exactly'],
    ...(hasPython ? [['notes', 'codex', expect.stringMatching(/^command and args match exactly(; python3 started as \S+)?$/)]] : []),
  ];

  it('a plain `orphans` finds each by client and entry, with no pattern, ranked first; the near miss is not listed', async () => {
    const run = await cli(['orphans', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as OrphanReport;
    for (const [name, client, how] of expected()) {
      // The client's child is the session's top (npm exec for npx); the server may be below it.
      const entry = report.entries.find((e) => e.pid === pid(name as string));
      expect(entry, name as string).toBeDefined();
      expect(entry!.classification).toBe('client-gone');
      expect(entry!.configured.map((c) => [c.name, c.client, c.how])).toEqual([[name, client, how]]);
      expect(entry!.serverEvidence).toEqual([]);
      expect(report.entries.indexOf(entry!)).toBeLessThan(report.entries.findIndex((e) => e.configured.length === 0) >>> 0);
    }
    expect(report.entries.some((e) => e.pid === pid('near-miss'))).toBe(false);
    const npx = report.entries.find((e) => e.pid === pid('npx-server'))!;
    expect(npx.chain.map((c) => c.launcher)).toEqual([true, true, false]);
    expect(npx.command.trimEnd()).toBe(`npm exec ${join(fx.servers, 'tiny-server')}`);
    expect(npx.server.pid).toBe(npx.chain[2]!.pid);
    expect(npx.server.command).toMatch(/^node \S+\/node_modules\/\.bin\/tiny-server$/);
    expect(report.clientConfigs.problems).toEqual([
      `${join(fx.project, '.mcp.json')}: mcpServers.win-only.command: is a Windows path: it cannot start on this machine, so it matches no process here`,
    ]);
  });

  it('says it in the text: "claude-desktop: filesystem (command and args match exactly)"; a bad --client-config is one line and the scan goes on', async () => {
    const bad = join(fx.root, 'broken.json');
    writeFileSync(bad, '{ "mcpServers": { "x": ');
    const run = await cli(['orphans', '--client-config', bad]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    const header = lines.findIndex((l) => l.startsWith(`CLIENT-GONE  pid ${pid('filesystem')} `));
    expect(header).toBeGreaterThanOrEqual(0);
    expect(lines.slice(header + 1, header + 9).find((l) => l.startsWith('  configured: '))).toBe(
      `  configured: claude-desktop: filesystem (command and args match exactly), pid ${pid('filesystem')}; ${join(fx.xdg, 'Claude', 'claude_desktop_config.json')}; env names: GITHUB_TOKEN, LOG_LEVEL`,
    );
    expect(lines.filter((l) => l.startsWith(`client config: ${bad}:`))).toEqual([
      `client config: ${bad}: expected JSON (comments allowed), found ValueExpected at line 1, column 24`,
    ]);
    expect(run.stdout).toContain(`CLIENT-GONE  pid ${pid('team-server')} `);
  });

  it('without the configurations they are not MCP servers at all (no pattern matches them)', async () => {
    const report = JSON.parse((await cli(['orphans', '--json', '--no-client-configs'])).stdout) as OrphanReport;
    for (const name of launched.keys())
      expect(
        report.entries.some((e) => e.server.pid === pid(name)),
        name,
      ).toBe(false);
    expect(report.clientConfigs).toEqual({ files: [], entries: 0, problems: [] });
  });

  it('--all lists the near miss as not counted, and says why', async () => {
    const report = JSON.parse((await cli(['orphans', '--json', '--all'])).stdout) as OrphanReport;
    expect(report.entries.some((e) => e.server.pid === pid('near-miss'))).toBe(false);
    expect(report.uncounted.find((u) => u.pid === pid('near-miss'))?.why).toBe(
      'its client is gone, but it matches no client configuration entry (claude-code: team-server starts node too, but args[2] differs (the entry has 3 args, the process 3)) and no server pattern, and carries no drill marker: not counted as an MCP server',
    );
    // The configured ones are counted, so never in that list.
    expect(report.uncounted.some((u) => u.pid === pid('filesystem'))).toBe(false);
  });

  it('inspect and contain name the entry too', async () => {
    const inspect = await cli(['inspect', String(pid('team-server'))]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain(
      `configured: claude-code: team-server (command and args match exactly), pid ${pid('team-server')}; ${join(fx.project, '.mcp.json')}; env names: TEAM_TOKEN`,
    );
    const nearMiss = await cli(['inspect', String(pid('near-miss'))]);
    expect(nearMiss.stdout).toContain('configured: no client configuration entry matches it or its launchers');
    const contain = await cli(['contain', String(pid('workspace-tool')), '--wait', '5']);
    expect(contain.code).toBe(0);
    expect(contain.stdout).toContain(
      `  configured: vscode: workspace-tool (command and args match exactly; \${input:profile} matched any value), pid ${pid('workspace-tool')}`,
    );
    expect(contain.stdout).toMatch(/^contain \d+: CONTAINED: /);
  });

  it('no env value of any fixture appears in any output', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(7);
    const all = outputs.map((o) => o.stdout + o.stderr).join('\n');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    // Proven the other way: the values were there to leak, in the servers' environments.
    expect(readFileSync(`/proc/${pid('filesystem')}/environ`, 'utf8')).toContain(`GITHUB_TOKEN=${ENV_VALUES.GITHUB_TOKEN}`);
    expect(readFileSync(`/proc/${pid('team-server')}/environ`, 'utf8')).toContain(`TEAM_TOKEN=${ENV_VALUES.TEAM_TOKEN_VALUE}`);
  });
});
