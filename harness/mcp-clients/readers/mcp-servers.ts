/**
 * The `mcpServers` format: `{ "mcpServers": { NAME: { command, args, env, cwd? } } }`. Claude
 * Desktop, Claude Code's .mcp.json, Cursor, Windsurf and Gemini CLI all read this shape.
 */
import path from 'node:path';
import { readEntryMap } from '../entry.js';
import type { ConfigFile, ConfiguredServer } from '../types.js';
import type { ReaderOut } from './reader.js';

/** Which variables each client expands in an entry (their docs): none, `${env:X}`-style, or `$X`/`${X}`. */
export const VARIABLES: Record<string, ConfiguredServer['variables']> = {
  'claude-desktop': 'none',
  'claude-code': 'shell', // `${VAR}` and `${VAR:-default}` in .mcp.json
  cursor: 'vscode', // `${env:NAME}`, `${userHome}`, `${workspaceFolder}`
  windsurf: 'vscode', // `${env:NAME}`
  gemini: 'shell', // `$VAR` and `${VAR}` in settings.json
  other: 'shell',
};

export function readMcpServers(config: ConfigFile, value: Record<string, unknown>, out: ReaderOut): void {
  readEntryMap(
    value.mcpServers,
    {
      client: config.client,
      file: config.file,
      field: 'mcpServers',
      workspace: config.workspace,
      variables: VARIABLES[config.client] ?? 'shell',
      base: config.workspace ?? path.dirname(config.file),
    },
    out,
  );
}
