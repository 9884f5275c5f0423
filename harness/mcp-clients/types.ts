/**
 * What this machine's MCP clients are configured to launch, from their files (locations.ts). Env
 * values are kept only for `init`, on a property JSON.stringify skips (server.ts): they hold tokens.
 */
export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini', 'zed'] as const;
export type ClientId = (typeof CLIENT_IDS)[number] | 'other';

/** How a file is read: which key holds the servers, and what the client allows in it. */
export type ConfigFormat =
  | 'mcp-servers' // { "mcpServers": { name: { command, args, env, cwd?, type? } } }
  | 'claude-code-user' // ~/.claude.json: mcpServers, and projects[path].mcpServers
  | 'vscode-mcp' // .vscode/mcp.json: { "servers": {...}, "inputs": [...] }
  | 'vscode-settings' // settings.json: { "mcp": { "servers": {...} } }
  | 'codex-toml' // config.toml: [mcp_servers.NAME]
  | 'zed-settings'; // settings.json: { "context_servers": {...} }

export interface ConfigFile {
  client: ClientId;
  file: string;
  format: ConfigFormat;
  /** The folder a project-scoped file belongs to (the workspace), null for a user file. */
  workspace: string | null;
  /** Comments (and trailing commas) are allowed: the client reads it as JSON with comments. */
  comments: boolean;
}

export interface ConfiguredServer {
  client: ClientId;
  name: string;
  file: string;
  /** Where in the file: `mcpServers.filesystem`, `projects["/p"].mcpServers.x`, `mcp_servers.x`. */
  field: string;
  /** As configured, client variables (`${env:X}`, `${workspaceFolder}`) not yet expanded. */
  command: string;
  args: string[];
  /** The working folder the client starts it in, absolute; null when the client does not say. */
  cwd: string | null;
  /** The workspace folder of a project-scoped file (for `${workspaceFolder}`), else null. */
  workspace: string | null;
  /** Which variable syntax the client expands in command, args and cwd (expand.ts). */
  variables: 'none' | 'vscode' | 'shell';
  /** Names of the env entries the client sets (values: envValues(), for init only). */
  envNames: string[];
}

/** A file that could not be read, or an entry that was left out: one line each, the scan goes on. */
export interface ClientConfigProblem {
  file: string;
  /** The field, when the problem is inside the file. */
  field: string | null;
  message: string;
}

export interface ClientConfigs {
  servers: ConfiguredServer[];
  problems: ClientConfigProblem[];
  /** The files that were read (found and parsed), for the report. */
  files: { client: ClientId; file: string }[];
}

export function problemLine(p: ClientConfigProblem): string {
  return `${p.file}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}
