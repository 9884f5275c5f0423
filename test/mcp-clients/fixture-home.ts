// biome-ignore-all lint/suspicious/noTemplateCurlyInString: client configurations hold `${...}` variables as plain text, which is what is tested
/**
 * A user's home and a project with every client's configuration file, in each client's real
 * format and with its quirks: comments where the client allows them, `${env:...}` and
 * `${workspaceFolder}`, `type: "stdio"`, `cwd`, remote and disabled entries, and a shared
 * .mcp.json with Windows paths, Codex's inline env table. Every script an entry names is there,
 * so each entry can be started as it says. Written into a fresh temp folder (removed by `remove()`); the
 * lookup is pointed at it through HOME, XDG_CONFIG_HOME and the working folder, so no test
 * reads the real user's files. No path here contains "mcp", so no default pattern matches.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../support/temp-dir.js';

export const FIXTURES = join(import.meta.dirname, 'fixtures');

/** Every env value in the fixtures: none may appear in any output. */
export const ENV_VALUES = {
  GITHUB_TOKEN: 'ghp_fixtureToken0123456789abcdefXYZ',
  NOTES_API_KEY: 'sk-fixture-notes-key-0123456789',
  LOG_LEVEL: 'verbose-fixture-level',
  TEAM_TOKEN_VALUE: 'team-fixture-secret-4711',
  WINDSURF_KEY: 'windsurf-fixture-value-99',
  GEMINI_API_KEY: 'gemini-fixture-value-1234',
  ZED_TOKEN: 'zed-fixture-value-5678',
  SETTINGS_TOKEN: 'settings-fixture-value-2468',
  LOCAL_SECRET: 'local-fixture-value-1357',
  INDEXER_TOKEN: 'indexer-fixture-value-8642',
  /** What a user typed for VS Code's ${input:api-key}: never in a file, only in the server's environment. */
  TYPED_API_KEY: 'typed-in-key-fixture-31337',
} as const;

export interface FixtureHome {
  root: string;
  home: string;
  xdg: string;
  project: string;
  servers: string;
  /** The environment that points the lookup here. */
  env: Record<string, string>;
  remove(): void;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function fixtureHome(): FixtureHome {
  const root = tempDir('crash-drill-clients-');
  const home = join(root, 'home');
  const xdg = join(home, '.config');
  const project = join(root, 'project');
  const servers = join(root, 'servers');
  mkdirSync(servers, { recursive: true });
  mkdirSync(join(project, 'tools'), { recursive: true });
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(servers, 'server.js'));
  copyFileSync(join(FIXTURES, 'plain-server.py'), join(servers, 'server.py'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(project, 'tools', 'server.js'));
  // A package npx runs from a folder: npm exec -> sh -c -> node <bin>.
  mkdirSync(join(servers, 'tiny-server'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(servers, 'tiny-server', 'server.js'));
  writeFileSync(join(servers, 'tiny-server', 'package.json'), JSON.stringify({ name: 'tiny-server', version: '1.0.0', bin: { 'tiny-server': 'server.js' } }));
  // The scripts the other clients' entries name, so each can be started as its entry says.
  for (const name of ['indexer.js', 'windsurf.js', 'settings.js', 'zed.js', 'legacy.js']) copyFileSync(join(FIXTURES, 'plain-server.js'), join(servers, name));
  mkdirSync(join(home, '.gemini', 'gemini'), { recursive: true });
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(home, '.gemini', 'gemini', 'gemini.js'));
  copyFileSync(join(FIXTURES, 'plain-server.js'), join(home, 'cursor.js'));
  const v = ENV_VALUES;

  // Claude Desktop (strict JSON), at the Linux location of the community builds.
  write(
    join(xdg, 'Claude', 'claude_desktop_config.json'),
    JSON.stringify(
      {
        mcpServers: {
          filesystem: { command: 'node', args: [join(servers, 'server.js'), '--root', project], env: { GITHUB_TOKEN: v.GITHUB_TOKEN, LOG_LEVEL: v.LOG_LEVEL } },
          'remote-api': { url: 'https://example.invalid/sse' },
        },
        globalShortcut: '',
      },
      null,
      2,
    ),
  );
  // Codex: TOML, a relative script under `cwd`, env and env_vars, a remote and a disabled table.
  write(
    join(home, '.codex', 'config.toml'),
    [
      '# Codex configuration',
      'model = "gpt-5"',
      '',
      '[mcp_servers.notes]',
      'command = "python3"',
      'args = ["server.py", "--notes"]',
      `cwd = "${servers}"`,
      'env_vars = ["HOME_REGION"]',
      '',
      '[mcp_servers.notes.env]',
      `NOTES_API_KEY = "${v.NOTES_API_KEY}"`,
      '',
      '[mcp_servers.indexer]',
      'command = "node"',
      'args = ["indexer.js", "--watch"]',
      `cwd = "${servers}"`,
      `env = { INDEXER_TOKEN = "${v.INDEXER_TOKEN}" }`,
      '',
      '[mcp_servers.docs]',
      'url = "https://example.invalid/docs"',
      '',
      '[mcp_servers.off]',
      'command = "node"',
      'args = ["off.js"]',
      'enabled = false',
      '',
    ].join('\n'),
  );
  // VS Code workspace: JSON with comments, trailing commas, inputs, type: stdio, ${workspaceFolder}, ${env:...}.
  write(
    join(project, '.vscode', 'mcp.json'),
    `{
  // Servers for this workspace
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
    { "type": "promptString", "id": "profile", "description": "Profile" },
  ],
  "servers": {
    "workspace-tool": {
      "type": "stdio",
      "command": "node",
      "args": ["\${workspaceFolder}/tools/server.js", "--profile", "\${input:profile}"],
      "env": { "API_KEY": "\${input:api-key}", "REGION": "\${env:FIXTURE_REGION}" },
    },
    /* a remote one: no process */
    "remote": { "type": "http", "url": "https://example.invalid/mcp" },
  },
}
`,
  );
  // Claude Code project scope: a file shared with a Windows teammate.
  write(
    join(project, '.mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          'win-only': { command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\tools\\server.js'] },
          'team-server': { command: 'node', args: ['./tools/server.js', '--team', '${TEAM_NAME:-core}'], env: { TEAM_TOKEN: '${TEAM_TOKEN}' } },
        },
      },
      null,
      2,
    ),
  );
  // Claude Code user file: user scope and local scope (per project).
  write(
    join(home, '.claude.json'),
    JSON.stringify(
      {
        numStartups: 3,
        mcpServers: { 'user-server': { type: 'stdio', command: 'node', args: [join(servers, 'server.js'), '--user'], env: {} } },
        projects: {
          [project]: {
            allowedTools: [],
            mcpServers: { 'local-server': { command: 'node', args: ['tools/server.js', '--local'], env: { LOCAL_SECRET: v.LOCAL_SECRET } } },
          },
        },
      },
      null,
      2,
    ),
  );
  // Cursor project scope: an npx entry.
  write(
    join(project, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { 'npx-server': { command: 'npx', args: ['--yes', '--offline', join(servers, 'tiny-server')] } } }),
  );
  write(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'cursor-server': { command: 'node', args: ['${userHome}/cursor.js'] } } }));
  write(
    join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    JSON.stringify({ mcpServers: { 'windsurf-server': { command: 'node', args: ['windsurf.js'], env: { WINDSURF_KEY: v.WINDSURF_KEY } } } }),
  );
  write(
    join(home, '.gemini', 'settings.json'),
    `{
  // Gemini CLI strips comments
  "theme": "Default",
  "mcpServers": {
    "gemini-server": { "command": "node", "args": ["gemini.js"], "cwd": "./gemini", "env": { "GEMINI_API_KEY": "${v.GEMINI_API_KEY}" }, "timeout": 30000 }
  }
}
`,
  );
  write(
    join(xdg, 'zed', 'settings.json'),
    `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "zed-server": { "source": "custom", "command": "node", "args": ["zed.js"], "env": { "ZED_TOKEN": "${v.ZED_TOKEN}" } },
    "zed-legacy": { "command": { "path": "node", "args": ["legacy.js"], "env": {} }, "settings": {} },
    "from-extension": { "source": "extension", "settings": {} },
  },
}
`,
  );
  write(
    join(xdg, 'Code', 'User', 'settings.json'),
    `{
  "editor.fontSize": 13, // comments are fine here
  "mcp": { "servers": { "settings-server": { "type": "stdio", "command": "node", "args": ["settings.js"], "env": { "SETTINGS_TOKEN": "${v.SETTINGS_TOKEN}" } } } },
}
`,
  );
  return {
    root,
    home,
    xdg,
    project,
    servers,
    env: { HOME: home, XDG_CONFIG_HOME: xdg },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
