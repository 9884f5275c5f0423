/**
 * VS Code: mcp.json `{ servers, inputs }`, or settings.json `"mcp": { servers }`; `type: "stdio"`,
 * with `${env:NAME}`, `${workspaceFolder}`, `${userHome}`, `${input:ID}` (prompted, never stored).
 */
import path from 'node:path';
import { readEntryMap } from '../entry.js';
import type { ConfigFile } from '../types.js';
import type { ReaderOut } from './reader.js';

export function readVscode(config: ConfigFile, value: Record<string, unknown>, out: ReaderOut): void {
  const ctx = {
    client: config.client,
    file: config.file,
    workspace: config.workspace,
    variables: 'vscode' as const,
    base: config.workspace ?? path.dirname(config.file),
  };
  if (config.format === 'vscode-mcp') {
    readEntryMap(value.servers, { ...ctx, field: 'servers' }, out);
    return;
  }
  const mcp = value.mcp;
  if (mcp !== null && typeof mcp === 'object' && !Array.isArray(mcp))
    readEntryMap((mcp as Record<string, unknown>).servers, { ...ctx, field: 'mcp.servers' }, out);
  if (value['mcp.servers'] !== undefined) readEntryMap(value['mcp.servers'], { ...ctx, field: '["mcp.servers"]' }, out);
}
