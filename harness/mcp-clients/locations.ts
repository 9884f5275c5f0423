/**
 * Where each client keeps its MCP servers on Linux and macOS ("documented": in the client's docs;
 * others say their source). All roots come from LookupPlaces, so a test can point them elsewhere.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientId, ConfigFile, ConfigFormat } from './types.js';

export interface LookupPlaces {
  home: string;
  /** XDG_CONFIG_HOME, default ~/.config (Linux). */
  xdgConfigHome: string;
  /** The project folder: where .mcp.json, .vscode/, .cursor/, .gemini/, .zed/ are looked for. */
  cwd: string;
  platform: NodeJS.Platform;
  /** CODEX_HOME, when set (documented: it replaces ~/.codex). */
  codexHome: string | null;
  /** Where the system-wide files are looked for: `/` (a test gives a folder of its own). */
  root: string;
  /** GEMINI_CLI_SYSTEM_SETTINGS_PATH, when set (documented: it replaces the system settings file). */
  geminiSystemSettings: string | null;
}

export function placesFrom(env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform, root = '/'): LookupPlaces {
  const home = env.HOME && env.HOME !== '' ? env.HOME : '/';
  return {
    home,
    xdgConfigHome: env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config'),
    cwd,
    platform,
    codexHome: env.CODEX_HOME && env.CODEX_HOME !== '' ? env.CODEX_HOME : null,
    root,
    geminiSystemSettings:
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH && path.isAbsolute(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) ? env.GEMINI_CLI_SYSTEM_SETTINGS_PATH : null,
  };
}

const file = (client: ClientId, f: string, format: ConfigFormat, comments: boolean, workspace: string | null = null): ConfigFile => ({
  client,
  file: f,
  format,
  workspace,
  comments,
});

/** The folders in `dir`, sorted; none when it cannot be read (most machines have no such folder). */
function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** Every file a client may keep servers in, user files first, then the project's. */
export function clientConfigFiles(p: LookupPlaces): ConfigFile[] {
  const mac = p.platform === 'darwin';
  const appSupport = path.join(p.home, 'Library', 'Application Support');
  // VS Code's User folder (documented), Insiders' own, and each non-default profile's User/profiles/<id>/mcp.json.
  const vscodeFiles = ['Code', 'Code - Insiders'].flatMap((product) => {
    const user = mac ? path.join(appSupport, product, 'User') : path.join(p.xdgConfigHome, product, 'User');
    return [
      file('vscode', path.join(user, 'mcp.json'), 'vscode-mcp', true),
      file('vscode', path.join(user, 'settings.json'), 'vscode-settings', true),
      ...subfolders(path.join(user, 'profiles')).map((profile) => file('vscode', path.join(user, 'profiles', profile, 'mcp.json'), 'vscode-mcp', true)),
    ];
  });
  return [
    // Claude Desktop: documented for macOS; community Linux builds (claude-desktop-debian) use $XDG_CONFIG_HOME/Claude.
    file(
      'claude-desktop',
      mac ? path.join(appSupport, 'Claude', 'claude_desktop_config.json') : path.join(p.xdgConfigHome, 'Claude', 'claude_desktop_config.json'),
      'mcp-servers',
      false,
    ),
    // Claude Code: documented: ~/.claude.json (user and local scopes), .mcp.json (project scope).
    file('claude-code', path.join(p.home, '.claude.json'), 'claude-code-user', false),
    // Cursor: documented: ~/.cursor/mcp.json (global), .cursor/mcp.json (project).
    file('cursor', path.join(p.home, '.cursor', 'mcp.json'), 'mcp-servers', false),
    // VS Code: documented: the user profile's mcp.json, or settings.json `mcp.servers`.
    ...vscodeFiles,
    // Windsurf: documented: ~/.codeium/windsurf/mcp_config.json.
    file('windsurf', path.join(p.home, '.codeium', 'windsurf', 'mcp_config.json'), 'mcp-servers', false),
    // Codex: documented: ~/.codex/config.toml, or $CODEX_HOME/config.toml.
    file('codex', path.join(p.codexHome ?? path.join(p.home, '.codex'), 'config.toml'), 'codex-toml', false),
    // Gemini CLI: documented: ~/.gemini/settings.json (user), .gemini/settings.json (project); it strips comments.
    file('gemini', path.join(p.home, '.gemini', 'settings.json'), 'mcp-servers', true),
    // Zed: documented: ~/.config/zed/settings.json on macOS, $XDG_CONFIG_HOME/zed/settings.json on Linux.
    file('zed', mac ? path.join(p.home, '.config', 'zed', 'settings.json') : path.join(p.xdgConfigHome, 'zed', 'settings.json'), 'zed-settings', true),
    // System-wide files an administrator deploys. Claude Code: documented: managed-mcp.json.
    file(
      'claude-code',
      mac ? path.join(p.root, 'Library', 'Application Support', 'ClaudeCode', 'managed-mcp.json') : path.join(p.root, 'etc', 'claude-code', 'managed-mcp.json'),
      'mcp-servers',
      false,
    ),
    // Gemini CLI: documented: the system settings file, or GEMINI_CLI_SYSTEM_SETTINGS_PATH.
    file(
      'gemini',
      p.geminiSystemSettings ??
        (mac ? path.join(p.root, 'Library', 'Application Support', 'GeminiCli', 'settings.json') : path.join(p.root, 'etc', 'gemini-cli', 'settings.json')),
      'mcp-servers',
      true,
    ),
    file('claude-code', path.join(p.cwd, '.mcp.json'), 'mcp-servers', false, p.cwd),
    file('cursor', path.join(p.cwd, '.cursor', 'mcp.json'), 'mcp-servers', false, p.cwd),
    file('vscode', path.join(p.cwd, '.vscode', 'mcp.json'), 'vscode-mcp', true, p.cwd),
    file('gemini', path.join(p.cwd, '.gemini', 'settings.json'), 'mcp-servers', true, p.cwd),
    file('zed', path.join(p.cwd, '.zed', 'settings.json'), 'zed-settings', true, p.cwd),
  ];
}

/** A file given by --client-config: client and format from name and content; an unknown client's file may have comments. */
export function explicitConfigFile(f: string, text: string): ConfigFile {
  const abs = path.resolve(f);
  const base = path.basename(abs);
  const parent = path.basename(path.dirname(abs));
  const workspace = parent.startsWith('.') && parent !== '.config' ? path.dirname(path.dirname(abs)) : null;
  if (base.endsWith('.toml')) return file(parent === '.codex' ? 'codex' : 'other', abs, 'codex-toml', false, null);
  if (base === 'claude_desktop_config.json') return file('claude-desktop', abs, 'mcp-servers', false);
  if (base === '.claude.json') return file('claude-code', abs, 'claude-code-user', false);
  if (base === '.mcp.json') return file('claude-code', abs, 'mcp-servers', false, path.dirname(abs));
  if (base === 'mcp_config.json') return file('windsurf', abs, 'mcp-servers', false);
  if (parent === '.cursor') return file('cursor', abs, 'mcp-servers', false, workspace);
  if (parent === '.gemini') return file('gemini', abs, 'mcp-servers', true, workspace);
  if (parent === '.vscode' || (parent === 'User' && base === 'mcp.json')) return file('vscode', abs, 'vscode-mcp', true, workspace);
  if (/"context_servers"\s*:/.test(text)) return file(parent === 'zed' || parent === '.zed' ? 'zed' : 'other', abs, 'zed-settings', true, workspace);
  if (/"mcp\.servers"\s*:|"mcp"\s*:\s*\{/.test(text)) return file('vscode', abs, 'vscode-settings', true, workspace);
  if (/"servers"\s*:/.test(text) && !/"mcpServers"\s*:/.test(text)) return file('vscode', abs, 'vscode-mcp', true, workspace);
  return file('other', abs, 'mcp-servers', true, workspace);
}
