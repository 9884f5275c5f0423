// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * Every client's configuration file, in its real format, read from a fixture home: the entries
 * each gives, what it leaves out (remote, disabled, extension-provided), and one line per bad
 * or unreadable file while the rest is read on. No env value leaves the reader.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClientConfigs } from '../../harness/mcp-clients/readers/load.js';
import { placesFrom } from '../../harness/mcp-clients/locations.js';
import { envValues } from '../../harness/mcp-clients/server.js';
import { problemLine } from '../../harness/mcp-clients/types.js';
import { ENV_VALUES, fixtureHome, type FixtureHome } from './fixture-home.js';

let fx: FixtureHome;
beforeAll(() => {
  fx = fixtureHome();
});
afterAll(() => fx.remove());

const load = (files: string[] = [], discover = true) => loadClientConfigs({ places: placesFrom(fx.env, fx.project, 'linux'), discover, files });

describe('reading the clients configurations', () => {
  it('finds every stdio entry of every client at its location, with command, args, cwd and env names', () => {
    const { servers, problems, files } = load();
    const got = servers.map((s) => [s.client, s.name, s.command, s.args, s.cwd, s.envNames]);
    expect(got).toEqual([
      ['claude-desktop', 'filesystem', 'node', [join(fx.servers, 'server.js'), '--root', fx.project], null, ['GITHUB_TOKEN', 'LOG_LEVEL']],
      ['claude-code', 'user-server', 'node', [join(fx.servers, 'server.js'), '--user'], null, []],
      ['claude-code', 'local-server', 'node', ['tools/server.js', '--local'], null, ['LOCAL_SECRET']],
      ['cursor', 'cursor-server', 'node', ['${userHome}/cursor.js'], null, []],
      ['vscode', 'settings-server', 'node', ['settings.js'], null, ['SETTINGS_TOKEN']],
      ['windsurf', 'windsurf-server', 'node', ['windsurf.js'], null, ['WINDSURF_KEY']],
      ['codex', 'notes', 'python3', ['server.py', '--notes'], fx.servers, ['HOME_REGION', 'NOTES_API_KEY']],
      ['codex', 'indexer', 'node', ['indexer.js', '--watch'], fx.servers, ['INDEXER_TOKEN']],
      ['gemini', 'gemini-server', 'node', ['gemini.js'], join(fx.home, '.gemini', 'gemini'), ['GEMINI_API_KEY']],
      ['zed', 'zed-server', 'node', ['zed.js'], null, ['ZED_TOKEN']],
      ['zed', 'zed-legacy', 'node', ['legacy.js'], null, []],
      ['claude-code', 'team-server', 'node', ['./tools/server.js', '--team', '${TEAM_NAME:-core}'], null, ['TEAM_TOKEN']],
      ['cursor', 'npx-server', 'npx', ['--yes', '--offline', join(fx.servers, 'tiny-server')], null, []],
      ['vscode', 'workspace-tool', 'node', ['${workspaceFolder}/tools/server.js', '--profile', '${input:profile}'], null, ['API_KEY', 'REGION']],
    ]);
    expect(servers.find((s) => s.name === 'local-server')!.workspace).toBe(fx.project);
    expect(servers.find((s) => s.name === 'local-server')!.field).toBe(`projects[${JSON.stringify(fx.project)}].mcpServers.local-server`);
    // The shared .mcp.json's Windows entry cannot start here: one line, not a matcher.
    expect(problems.map(problemLine)).toEqual([
      `${join(fx.project, '.mcp.json')}: mcpServers.win-only.command: is a Windows path: it cannot start on this machine, so it matches no process here`,
    ]);
    expect(files).toHaveLength(11);
  });

  it('keeps env values off everything that can be printed or serialised', () => {
    const { servers, problems } = load();
    const text = JSON.stringify({ servers, problems, spread: servers.map((s) => ({ ...s })) });
    for (const value of Object.values(ENV_VALUES)) expect(text).not.toContain(value);
    // ...while init can still read them, on purpose.
    expect(envValues(servers.find((s) => s.name === 'filesystem')!).GITHUB_TOKEN).toBe(ENV_VALUES.GITHUB_TOKEN);
    expect(envValues(servers.find((s) => s.name === 'notes')!).NOTES_API_KEY).toBe(ENV_VALUES.NOTES_API_KEY);
  });

  it('gives one line per bad or unreadable file, naming file and place, and reads the rest', () => {
    const bad = join(fx.root, 'bad');
    mkdirSync(join(bad, 'folder.json'), { recursive: true });
    writeFileSync(join(bad, 'claude_desktop_config.json'), '{ "mcpServers": { "a": { "command": "node" } } // a comment\n}');
    writeFileSync(join(bad, 'config.toml'), '[mcp_servers.x]\ncommand = "node\n');
    writeFileSync(
      join(bad, 'types.json'),
      JSON.stringify({
        mcpServers: { x: { command: 'node', args: 'server.js' }, y: { command: 7 }, z: { command: 'node', env: { K: { nested: ENV_VALUES.LOCAL_SECRET } } } },
      }),
    );
    writeFileSync(join(bad, 'list.json'), '[1, 2]');
    const files = ['folder.json', 'claude_desktop_config.json', 'config.toml', 'types.json', 'list.json', 'missing.json'].map((f) => join(bad, f));
    const { servers, problems } = load(files, false);
    expect(servers).toEqual([]);
    const lines = problems.map(problemLine);
    expect(lines).toEqual([
      `${files[0]}: cannot read it: is a folder, expected a file`,
      `${files[1]}: expected JSON, found a comment, which this client does not allow (strict JSON) at line 1, column 48`,
      expect.stringMatching(new RegExp(`^${files[2]}: expected TOML, found an error at line 2, column \\d+: `)),
      `${files[3]}: mcpServers.x.args: expected a list of strings, got a string`,
      `${files[3]}: mcpServers.y.command: expected a command (a non-empty string), got a number`,
      `${files[3]}: mcpServers.z.env.K: expected a string, got an object (value not shown)`,
      `${files[4]}: expected an object at the top, got a list`,
      `${files[5]}: no such file`,
    ]);
    expect(lines.join('\n')).not.toContain(ENV_VALUES.LOCAL_SECRET);
    // The documented files are still read beside them.
    expect(load(files).servers.length).toBe(14);
  });

  it('reads the .mcp.json of every project ~/.claude.json lists, from any working folder; other project files only from the working folder', () => {
    const elsewhere = loadClientConfigs({ places: placesFrom(fx.env, fx.root, 'linux'), discover: true });
    const names = elsewhere.servers.map((s) => `${s.client}: ${s.name}`);
    expect(names).toContain('claude-code: team-server');
    expect(elsewhere.servers.find((s) => s.name === 'team-server')!.workspace).toBe(fx.project);
    expect(names).not.toContain('vscode: workspace-tool');
  });

  it('a named file is read in its own format, and a missing documented file is no problem', () => {
    const named = load([join(fx.home, '.codex', 'config.toml')], false);
    expect(named.servers.map((s) => `${s.client}: ${s.name}`)).toEqual(['codex: notes', 'codex: indexer']);
    const empty = loadClientConfigs({ places: placesFrom({ HOME: join(fx.root, 'nobody') }, join(fx.root, 'nowhere'), 'linux'), discover: true });
    expect(empty).toEqual({ servers: [], problems: [], files: [] });
  });

  it('on macOS: Claude Desktop and VS Code under ~/Library/Application Support, Zed under ~/.config whatever XDG_CONFIG_HOME says; the Linux places are not read there', () => {
    const home = join(fx.root, 'mac-home');
    const xdg = join(home, 'xdg');
    const put = (file: string, client: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      const servers = { [`${client}-entry`]: { command: 'node', args: [`${client}.js`] } };
      writeFileSync(
        file,
        JSON.stringify(
          file.endsWith('settings.json') && client === 'zed' ? { context_servers: servers } : client === 'vscode' ? { servers } : { mcpServers: servers },
        ),
      );
    };
    const support = join(home, 'Library', 'Application Support');
    put(join(support, 'Claude', 'claude_desktop_config.json'), 'claude-desktop');
    put(join(support, 'Code', 'User', 'mcp.json'), 'vscode');
    put(join(home, '.config', 'zed', 'settings.json'), 'zed');
    put(join(home, '.cursor', 'mcp.json'), 'cursor');
    put(join(home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf');
    put(join(home, '.gemini', 'settings.json'), 'gemini');
    // Where Linux looks (XDG_CONFIG_HOME): not a macOS place.
    put(join(xdg, 'Claude', 'claude_desktop_config.json'), 'linux-claude');
    put(join(xdg, 'Code', 'User', 'mcp.json'), 'vscode');
    const names = (platform: NodeJS.Platform) =>
      loadClientConfigs({ places: placesFrom({ HOME: home, XDG_CONFIG_HOME: xdg }, join(fx.root, 'nowhere'), platform), discover: true }).servers.map(
        (s) => `${s.client}: ${s.name} (${s.file.slice(home.length + 1)})`,
      );
    expect(names('darwin')).toEqual([
      'claude-desktop: claude-desktop-entry (Library/Application Support/Claude/claude_desktop_config.json)',
      'cursor: cursor-entry (.cursor/mcp.json)',
      'vscode: vscode-entry (Library/Application Support/Code/User/mcp.json)',
      'windsurf: windsurf-entry (.codeium/windsurf/mcp_config.json)',
      'gemini: gemini-entry (.gemini/settings.json)',
      'zed: zed-entry (.config/zed/settings.json)',
    ]);
    // The other way: Linux reads XDG_CONFIG_HOME, not ~/Library nor ~/.config when XDG_CONFIG_HOME is elsewhere.
    expect(names('linux')).toEqual([
      'claude-desktop: linux-claude-entry (xdg/Claude/claude_desktop_config.json)',
      'cursor: cursor-entry (.cursor/mcp.json)',
      'vscode: vscode-entry (xdg/Code/User/mcp.json)',
      'windsurf: windsurf-entry (.codeium/windsurf/mcp_config.json)',
      'gemini: gemini-entry (.gemini/settings.json)',
    ]);
  });

  it("reads the administrator's files: Claude Code's managed-mcp.json and Gemini CLI's system settings, at each platform's place", () => {
    const root = join(fx.root, 'sysroot');
    const put = (file: string, name: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `{ "mcpServers": { "${name}": { "command": "node", "args": ["${name}.js"] } } }`);
    };
    put(join(root, 'etc', 'claude-code', 'managed-mcp.json'), 'managed-linux');
    put(join(root, 'etc', 'gemini-cli', 'settings.json'), 'gemini-system-linux');
    put(join(root, 'Library', 'Application Support', 'ClaudeCode', 'managed-mcp.json'), 'managed-mac');
    put(join(root, 'Library', 'Application Support', 'GeminiCli', 'settings.json'), 'gemini-system-mac');
    put(join(fx.root, 'elsewhere', 'gemini-system.json'), 'gemini-from-variable');
    const names = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}) =>
      loadClientConfigs({
        places: placesFrom({ HOME: join(fx.root, 'nobody'), ...env }, join(fx.root, 'nowhere'), platform, root),
        discover: true,
      }).servers.map((s) => `${s.client}: ${s.name}`);
    expect(names('linux')).toEqual(['claude-code: managed-linux', 'gemini: gemini-system-linux']);
    expect(names('darwin')).toEqual(['claude-code: managed-mac', 'gemini: gemini-system-mac']);
    expect(names('linux', { GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(fx.root, 'elsewhere', 'gemini-system.json') })).toEqual([
      'claude-code: managed-linux',
      'gemini: gemini-from-variable',
    ]);
  });

  it("VS Code Insiders' user folder and every profile's mcp.json, on Linux and macOS", () => {
    const home = join(fx.root, 'vscode-home');
    const put = (file: string, name: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `{ // comments allowed\n "servers": { "${name}": { "type": "stdio", "command": "node", "args": ["${name}.js"] } } }`);
    };
    put(join(home, '.config', 'Code', 'User', 'profiles', '-4a1b2c', 'mcp.json'), 'work-profile');
    put(join(home, '.config', 'Code - Insiders', 'User', 'mcp.json'), 'insiders');
    put(join(home, 'Library', 'Application Support', 'Code', 'User', 'profiles', '7f0e', 'mcp.json'), 'mac-profile');
    const names = (platform: NodeJS.Platform) =>
      loadClientConfigs({ places: placesFrom({ HOME: home }, join(fx.root, 'nowhere'), platform, join(fx.root, 'no-root')), discover: true }).servers.map(
        (s) => `${s.client}: ${s.name} (${s.file.slice(home.length + 1)})`,
      );
    expect(names('linux')).toEqual([
      'vscode: work-profile (.config/Code/User/profiles/-4a1b2c/mcp.json)',
      'vscode: insiders (.config/Code - Insiders/User/mcp.json)',
    ]);
    expect(names('darwin')).toEqual(['vscode: mac-profile (Library/Application Support/Code/User/profiles/7f0e/mcp.json)']);
  });
});
