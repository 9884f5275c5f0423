// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations and scenarios hold `${...}` and `{{...}}` as plain text, which is what is tested
/**
 * `crash-drill init --from-client-config` on a Claude Desktop config with three servers (and a
 * remote one) writes one named subject and its scenarios per stdio server, env values
 * referenced as {{env.NAME}} where they are secret and copied where they are not; `crash-drill
 * run` then drills all three side by side with no ERROR, and fails for lack of the secret
 * without it. `--from-client codex` reads the fixture home's config.toml. No env value of any
 * fixture appears in any output or in any written scenario.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { FIXTURES } from '../mcp-clients/fixture-home.js';
import { type CliRun, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';

const SECRETS = {
  GITHUB_TOKEN: 'ghp_initFixtureToken0123456789abcdef',
  API_KEY: 'sk-init-fixture-key-0123456789abcd',
  DATABASE_URL: 'postgres://notes:init-fixture-db-pass@db.invalid:5432/notes',
  /** Given as an arg, `--api-key <value>`: referenced as BETA_ARG_4. */
  BETA_ARG_4: 'init-fixture-arg-key-2468',
};
const PLAIN = 'verbose-init-fixture-level';
const SERVER = join(FIXTURES, 'one-tool-server.mjs');

const dirs: string[] = [];
const outputs: CliRun[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = tempDir('crash-drill-init-client-');
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(packageRoot(), join(dir, 'node_modules/mcp-crash-drill'), 'dir');
  return dir;
}

async function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const run = await runCli(args, { cwd, env });
  outputs.push(run);
  return run;
}

function threeServers(dir: string): string {
  const file = join(dir, 'claude_desktop_config.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        mcpServers: {
          alpha: { command: 'node', args: [SERVER, '--flavour', 'alpha'], env: { GITHUB_TOKEN: SECRETS.GITHUB_TOKEN, LOG_LEVEL: PLAIN } },
          beta: { command: 'node', args: [SERVER, '--flavour', 'beta', '--api-key', SECRETS.BETA_ARG_4] },
          gamma: { command: 'node', args: [SERVER, '--flavour', 'gamma'], env: { API_KEY: SECRETS.API_KEY, DATABASE_URL: SECRETS.DATABASE_URL } },
          remote: { url: 'https://example.invalid/mcp' },
        },
      },
      null,
      2,
    ),
  );
  return file;
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(join(dir, 'scenarios'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml'))
    .sort();

describe('init --from-client-config', () => {
  it('writes one named subject per stdio server that `run` drills side by side with no ERROR; secrets referenced, not copied', async () => {
    const dir = project();
    const config = threeServers(dir);
    const init = await cli(['init', '--from-client-config', config], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    // Per server: its lifecycle (idle, pre-dispatch) and its one tool (in-flight, after-response), each point in 3 modes.
    expect(init.stdout).toContain('wrote crash-drill.config.mjs and 6 scenarios (36 drills) for 3 servers:');
    expect(init.stdout).toContain('scenarios/alpha/  claude-desktop: alpha: 1 tool, 2 scenarios; env names: GITHUB_TOKEN, LOG_LEVEL');
    expect(init.stdout).toContain('The scenarios reference API_KEY, BETA_ARG_4, DATABASE_URL, GITHUB_TOKEN as {{env.NAME}} (not copied)');
    expect(yamlFiles(dir)).toEqual(['alpha', 'beta', 'gamma'].flatMap((s) => [`${s}/lifecycle.yaml`, `${s}/read-only/look.yaml`]));
    const alpha = readFileSync(join(dir, 'scenarios/alpha/read-only/look.yaml'), 'utf8');
    expect(alpha).toContain(`subject:\n  name: alpha\n  command: node\n  args: [${SERVER}, --flavour, alpha]\n`);
    expect(alpha).toContain(`env: {GITHUB_TOKEN: "{{env.GITHUB_TOKEN}}", LOG_LEVEL: ${PLAIN}}`);
    expect(alpha).toContain('id: alpha-look');
    expect(readFileSync(join(dir, 'scenarios/alpha/lifecycle.yaml'), 'utf8')).toContain('id: alpha-lifecycle\n');
    expect(readFileSync(join(dir, 'scenarios/alpha/lifecycle.yaml'), 'utf8')).toContain(
      `subject:\n  name: alpha\n  command: node\n  args: [${SERVER}, --flavour, alpha]\n`,
    );
    for (const f of ['lifecycle.yaml', 'read-only/look.yaml'])
      expect(readFileSync(join(dir, 'scenarios/beta', f), 'utf8')).toContain(`args: [${SERVER}, --flavour, beta, --api-key, "{{env.BETA_ARG_4}}"]`);
    expect(readFileSync(join(dir, 'scenarios/gamma/read-only/look.yaml'), 'utf8')).toContain(
      'env: {API_KEY: "{{env.API_KEY}}", DATABASE_URL: "{{env.DATABASE_URL}}"}',
    );

    // A plain `crash-drill run`: every point and mode init wrote.
    const run = await cli(['run', '--out', join(dir, 'out'), '--reporter', 'console,junit,markdown,html'], dir, SECRETS);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as {
      drills: { key: string; verdict: string; reason: string }[];
      expectation: { servers: { server: string; statements: { statement: string; status: string }[] }[] };
    };
    expect(results.drills.length).toBe(36);
    expect(results.drills.filter((d) => d.verdict === 'error')).toEqual([]);
    expect(new Set(results.drills.map((d) => d.key.split('/')[0]))).toEqual(
      new Set(['alpha', 'beta', 'gamma'].flatMap((s) => [`${s}-lifecycle`, `${s}-look`])),
    );
    expect(run.stdout).not.toContain('ERROR');
    expect(run.stdout.trimEnd().split('\n').pop()).toMatch(/^36 passed, 0 failed, 0 unknown/);
    expect(run.code).toBe(0);
    // Compared side by side: each configured server's cleanup expectation, judged by its own drills.
    expect(results.expectation.servers.map((s) => [s.server, s.statements.map((t) => `${t.statement}: ${t.status}`)])).toEqual(
      ['alpha', 'beta', 'gamma'].map((name) => [name, ['stops-accepting-calls: met', 'exits-within: met', 'leaves-no-helper: met']]),
    );

    // Proven the other way: without the secret in the environment the drill cannot start it.
    const without = await cli(['run', '--only', 'alpha-lifecycle', '--point', 'idle', '--mode', 'crash', '--out', join(dir, 'out2')], dir, {
      GITHUB_TOKEN: undefined,
    });
    const bare = JSON.parse(readFileSync(join(dir, 'out2', 'results.json'), 'utf8')) as typeof results;
    expect(bare.drills.map((d) => d.verdict)).toEqual(['error']);
    expect(bare.drills[0]!.reason).toContain('template {{env.GITHUB_TOKEN}} has no value: GITHUB_TOKEN is not set');
    expect(without.code).toBe(4);

    // No secret in any written scenario, config or report file.
    for (const f of [...yamlFiles(dir).map((f) => join('scenarios', f)), 'crash-drill.config.mjs'])
      for (const s of Object.values(SECRETS)) expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(s);
    const written = readdirSync(join(dir, 'out'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(json|jsonl|md|xml|html)$/.test(f));
    expect(written).toEqual(expect.arrayContaining(['results.json', 'summary.md', 'report.html', 'junit.xml']));
    expect(written.filter((f) => f.startsWith('evidence/')).length).toBeGreaterThanOrEqual(36);
    for (const f of written) for (const s of Object.values(SECRETS)) expect(readFileSync(join(dir, 'out', f), 'utf8'), f).not.toContain(s);
  }, 240_000);

  it('--from-client reads the documented location under HOME; unknown clients and empty configs are usage errors', async () => {
    const dir = project();
    const home = join(dir, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(
      join(home, '.codex', 'config.toml'),
      `# Codex\n[mcp_servers.notes]\ncommand = "node"\nargs = ["${SERVER}", "--flavour", "notes"]\ncwd = "${dir}"\nenv_vars = ["NOTES_REGION"]\n[mcp_servers.notes.env]\nNOTES_API_KEY = "${SECRETS.API_KEY}"\n`,
    );
    const init = await cli(['init', '--from-client', 'codex'], dir, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const notes = readFileSync(join(dir, 'scenarios/notes/read-only/look.yaml'), 'utf8');
    expect(notes).toContain('env: {NOTES_API_KEY: "{{env.NOTES_API_KEY}}", NOTES_REGION: "{{env.NOTES_REGION}}"}');
    expect(notes).not.toContain(SECRETS.API_KEY);

    const unknown = await cli(['init', '--from-client', 'notepad'], dir);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toBe(
      'crash-drill: init: --from-client: expected one of claude-desktop, claude-code, cursor, vscode, windsurf, codex, gemini, zed, got "notepad"\n',
    );
    const none = await cli(['init', '--from-client', 'zed', '--force'], dir, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(none.code).toBe(3);
    expect(none.stderr).toBe('crash-drill: init: no stdio server entries to drill (no configuration file of zed could be read); nothing was written\n');
  }, 120_000);

  it('no env value of any fixture appears in any output', () => {
    expect(outputs.length).toBe(6);
    const all = outputs.map((o) => o.stdout + o.stderr).join('\n');
    for (const s of [...Object.values(SECRETS)]) expect(all).not.toContain(s);
  });
});
