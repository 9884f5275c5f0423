/**
 * Codex's config.toml (smol-toml): `[mcp_servers.NAME]` with command, args, env, cwd, enabled and
 * `env_vars` (forwarded names only); one with `url` is remote.
 */
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { readEntryMap } from '../entry.js';
import type { ConfigFile } from '../types.js';
import type { ReaderOut } from './reader.js';

export function parseToml(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    return { ok: true, value: parse(text) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return { ok: false, message: `expected TOML, found an error at line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}` };
  }
}

export function readCodex(config: ConfigFile, value: Record<string, unknown>, out: ReaderOut): void {
  const before = out.servers.length;
  readEntryMap(
    value.mcp_servers,
    {
      client: config.client,
      file: config.file,
      field: 'mcp_servers',
      workspace: config.workspace,
      variables: 'none',
      base: config.workspace ?? path.dirname(config.file),
    },
    out,
  );
  const tables = value.mcp_servers as Record<string, Record<string, unknown>> | undefined;
  for (const server of out.servers.slice(before)) {
    const forwarded = tables?.[server.name]?.env_vars;
    if (!Array.isArray(forwarded)) continue;
    const names = forwarded.filter((n): n is string => typeof n === 'string');
    server.envNames = [...new Set([...server.envNames, ...names])].sort();
  }
}
