/**
 * Zed's settings.json `context_servers` (zed.dev/docs/ai/mcp): `{ command, args, env }`, or the
 * older nested `"command": { path, args, env }`; extension servers have no command and are skipped.
 */
import path from 'node:path';
import { readEntryMap } from '../entry.js';
import type { ConfigFile } from '../types.js';
import type { ReaderOut } from './reader.js';

function unwrap(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const entry = raw as Record<string, unknown>;
  if (entry.source === 'extension' && entry.command === undefined) return { ...entry, enabled: false };
  const command = entry.command;
  if (command !== null && typeof command === 'object' && !Array.isArray(command)) {
    const nested = command as Record<string, unknown>;
    return { ...entry, command: nested.path, args: nested.args, env: nested.env };
  }
  return raw;
}

export function readZed(config: ConfigFile, value: Record<string, unknown>, out: ReaderOut): void {
  const servers = value.context_servers;
  const map =
    servers !== null && typeof servers === 'object' && !Array.isArray(servers)
      ? Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, unwrap(v)]))
      : servers;
  readEntryMap(
    map,
    {
      client: config.client,
      file: config.file,
      field: 'context_servers',
      workspace: config.workspace,
      variables: 'none',
      base: config.workspace ?? path.dirname(config.file),
    },
    out,
  );
}
