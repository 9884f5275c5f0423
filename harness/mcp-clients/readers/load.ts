/** Reads every client configuration; a missing file is silent unless named, any other problem is one line and the rest is read on. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { clientConfigFiles, explicitConfigFile, type LookupPlaces } from '../locations.js';
import { describeType, parseJsonText, readConfigText } from '../read-json.js';
import { readClaudeCodeUser } from './claude-code-user.js';
import { parseToml, readCodex } from './codex.js';
import { readMcpServers } from './mcp-servers.js';
import type { ReaderOut } from './reader.js';
import { readVscode } from './vscode.js';
import { readZed } from './zed.js';
import type { ClientConfigs, ClientId, ConfigFile } from '../types.js';

export interface LoadOptions {
  places: LookupPlaces;
  /** Read the documented locations (false: only `files`). */
  discover: boolean;
  /** Only this client's documented files. */
  client?: ClientId;
  /** Files named by the user (--client-config); relative to places.cwd. */
  files?: readonly string[];
}

/** `C:\...`, `\\server\...` or a backslash path: written on Windows, it cannot start here. */
const WINDOWS_PATH = /^([A-Za-z]:[\\/]|\\\\)|\\/;

function readOne(config: ConfigFile, text: string, out: ReaderOut): boolean {
  const parsed = config.format === 'codex-toml' ? parseToml(text) : parseJsonText(text, config.comments);
  if (!parsed.ok) {
    out.problems.push({ file: config.file, field: null, message: parsed.message });
    return false;
  }
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.problems.push({ file: config.file, field: null, message: `expected an object at the top, got ${describeType(value)}` });
    return false;
  }
  const v = value as Record<string, unknown>;
  if (config.format === 'mcp-servers') readMcpServers(config, v, out);
  else if (config.format === 'claude-code-user') readClaudeCodeUser(config, v, out);
  else if (config.format === 'vscode-mcp' || config.format === 'vscode-settings') readVscode(config, v, out);
  else if (config.format === 'codex-toml') readCodex(config, v, out);
  else readZed(config, v, out);
  return true;
}

export function loadClientConfigs(opts: LoadOptions): ClientConfigs {
  const out: ReaderOut = { servers: [], problems: [] };
  const files: ClientConfigs['files'] = [];
  const seen = new Set<string>();
  const discovered = opts.discover ? clientConfigFiles(opts.places).filter((f) => opts.client === undefined || f.client === opts.client) : [];
  for (let i = 0; i < discovered.length; i++) {
    const config = discovered[i]!;
    if (seen.has(config.file) || absent(config.file)) continue;
    seen.add(config.file);
    const text = readConfigText(config.file);
    if (!text.ok) out.problems.push({ file: config.file, field: null, message: text.message });
    else if (readOne(config, text.text, out)) files.push({ client: config.client, file: config.file });
    discovered.push(...(out.more ?? []));
    out.more = [];
  }
  for (const f of opts.files ?? []) {
    const abs = path.resolve(opts.places.cwd, f);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const text = readConfigText(abs);
    if (!text.ok) {
      out.problems.push({ file: abs, field: null, message: text.message.replace('cannot read it: ENOENT', 'no such file') });
      continue;
    }
    const config = explicitConfigFile(abs, text.text);
    if (readOne(config, text.text, out)) files.push({ client: config.client, file: config.file });
  }
  const servers = out.servers.filter((s) => {
    if (!WINDOWS_PATH.test(s.command)) return true;
    out.problems.push({
      file: s.file,
      field: `${s.field}.command`,
      message: 'is a Windows path: it cannot start on this machine, so it matches no process here',
    });
    return false;
  });
  return { servers, problems: out.problems, files };
}

/** True when nothing is at a documented place (silent); a place this user cannot enter is not absent. */
function absent(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}
