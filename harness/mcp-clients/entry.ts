/** One server entry of any client, checked field by field; remote and switched-off entries launch nothing, so give no matcher and no problem. */
import path from 'node:path';
import { describeType } from './read-json.js';
import { withEnvValues } from './server.js';
import type { ClientId, ClientConfigProblem, ConfiguredServer } from './types.js';

export interface EntryContext {
  client: ClientId;
  file: string;
  /** `mcpServers.NAME` etc. */
  field: string;
  name: string;
  workspace: string | null;
  variables: ConfiguredServer['variables'];
  /** Where a relative `cwd` resolves from (the workspace, else the file's folder). */
  base: string;
}

const STDIO_TYPES = new Set(['stdio', 'local']);
const REMOTE_KEYS = ['url', 'httpUrl', 'serverUrl', 'serverURL'];

export type EntryResult = { server: ConfiguredServer } | { problem: ClientConfigProblem } | { skipped: 'remote' | 'disabled' };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `raw` is the entry's object; Zed's older `command: { path, args, env }` is unwrapped by its reader. */
export function readEntry(raw: unknown, ctx: EntryContext): EntryResult {
  const problem = (sub: string | null, message: string): EntryResult => ({
    problem: { file: ctx.file, field: sub ? `${ctx.field}.${sub}` : ctx.field, message },
  });
  if (!isObject(raw)) return problem(null, `expected an object (a server entry), got ${describeType(raw)}`);
  if (raw.disabled === true || raw.enabled === false) return { skipped: 'disabled' };
  const type = raw.type ?? raw.transport;
  if (typeof type === 'string' && !STDIO_TYPES.has(type)) return { skipped: 'remote' };
  if (raw.command === undefined && REMOTE_KEYS.some((k) => typeof raw[k] === 'string')) return { skipped: 'remote' };
  if (typeof raw.command !== 'string' || raw.command.trim() === '')
    return problem('command', `expected a command (a non-empty string), got ${describeType(raw.command)}`);

  let args: string[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args)) return problem('args', `expected a list of strings, got ${describeType(raw.args)}`);
    const bad = raw.args.findIndex((a) => typeof a !== 'string' && typeof a !== 'number');
    if (bad >= 0) return problem(`args[${bad}]`, `expected a string, got ${describeType(raw.args[bad])}`);
    args = raw.args.map(String);
  }

  const env: Record<string, string | null> = {};
  if (raw.env !== undefined && raw.env !== null) {
    if (!isObject(raw.env)) return problem('env', `expected an object of variable names to strings, got ${describeType(raw.env)}`);
    for (const [k, v] of Object.entries(raw.env)) {
      // The value is never echoed, not even in an error: it may be a token.
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        return problem(`env.${k}`, `expected a string, got ${describeType(v)} (value not shown)`);
      env[k] = v === null ? null : String(v);
    }
  }

  let cwd: string | null = null;
  if (raw.cwd !== undefined && raw.cwd !== null) {
    if (typeof raw.cwd !== 'string') return problem('cwd', `expected a folder (a string), got ${describeType(raw.cwd)}`);
    cwd = raw.cwd.startsWith('${') || path.isAbsolute(raw.cwd) ? raw.cwd : path.resolve(ctx.base, raw.cwd);
  }

  const server: ConfiguredServer = {
    client: ctx.client,
    name: ctx.name,
    file: ctx.file,
    field: ctx.field,
    command: raw.command,
    args,
    cwd,
    workspace: ctx.workspace,
    variables: ctx.variables,
    envNames: Object.keys(env).sort(),
  };
  return { server: withEnvValues(server, env) };
}

/** Every entry of a `{ name: entry }` map at `field`; problems and servers collected. */
export function readEntryMap(
  map: unknown,
  ctx: Omit<EntryContext, 'field' | 'name'> & { field: string },
  out: { servers: ConfiguredServer[]; problems: ClientConfigProblem[] },
): void {
  if (map === undefined || map === null) return;
  if (!isObject(map)) {
    out.problems.push({ file: ctx.file, field: ctx.field, message: `expected an object of server entries, got ${describeType(map)}` });
    return;
  }
  for (const [name, raw] of Object.entries(map)) {
    const r = readEntry(raw, { ...ctx, name, field: fieldPath(ctx.field, name) });
    if ('server' in r) out.servers.push(r.server);
    else if ('problem' in r) out.problems.push(r.problem);
  }
}

/** A field path with one more key: `a.b` when the key is a plain word, else `a["b c"]`. */
export function fieldPath(field: string, key: string): string {
  if (/^[A-Za-z_][\w-]*$/.test(key)) return field === '' ? key : `${field}.${key}`;
  return `${field}[${JSON.stringify(key)}]`;
}
