/**
 * A configured client entry as a drill subject: what `init` starts now, and what it writes, never
 * a copy of a secret: a variable reference, a credential-named or a token-like value becomes `{{env.NAME}}`.
 */
import { isCredentialName, looksLikeSecret } from '../util/secrets.js';
import { envValues } from '../mcp-clients/server.js';
import type { ConfiguredServer } from '../mcp-clients/types.js';
import { UserError } from '../util/errors.js';

export interface ClientSubject {
  /** The entry's name, as the subject's name (the reports compare servers by it). */
  name: string;
  command: string;
  args: string[];
  cwd: string | null;
  /** As written: literal values that hold no secret, `{{env.NAME}}` for the others. */
  env: Record<string, string>;
  /** What the server gets now, to list its tools: never written, never printed. */
  launchEnv: Record<string, string>;
  launchArgs: string[];
  launchCwd: string | null;
}

export class ClientSubjectError extends UserError {
  readonly code = 'CRASH_DRILL_INIT_CLIENT_ENTRY';
}

const WHOLE_VARIABLE = /^\$\{(?:env:)?([A-Za-z_]\w*)(?::-([^}]*))?\}$|^\$([A-Za-z_]\w*)$/;
const VSCODE_VAR = /\$\{(env:([A-Za-z_]\w*)|workspaceFolder|userHome|input:[^}]+|[^}]+)\}/g;
const SHELL_VAR = /\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}|\$([A-Za-z_]\w*)/g;

/** `--api-key` -> `api_key`: a flag's name, to ask isCredentialName about. */
const flagName = (flag: string): string => flag.replace(/^-+/, '').replace(/=$/, '').replace(/-/g, '_');
const FLAG = /^--?[A-Za-z][\w-]*$/;

/**
 * Where an arg holds a secret: a token-shaped value, or the value of a credential-named flag
 * (`--api-key X`, `--token=X`). Returns the part before the secret (`--token=`, or empty).
 */
function secretInArg(args: readonly string[], i: number): string | null {
  const a = args[i]!;
  if (a.includes('{{')) return null;
  const eq = /^(--?[A-Za-z][\w-]*=)(.+)$/s.exec(a);
  if (eq) return isCredentialName(flagName(eq[1]!)) || looksLikeSecret(eq[2]!) ? eq[1]! : null;
  if (a.startsWith('-')) return null;
  const prev = args[i - 1];
  return looksLikeSecret(a) || (prev !== undefined && FLAG.test(prev) && isCredentialName(flagName(prev))) ? '' : null;
}

/** `my-server` -> `MY_SERVER`: the entry's name as the start of an environment variable's. */
const envPrefix = (name: string): string =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'SERVER';

/** A command, arg or cwd with the client's variables turned into templates (written) and values (started now). */
function translate(value: string, server: ConfiguredServer, env: NodeJS.ProcessEnv, home: string, field: string): { written: string; now: string } {
  if (server.variables === 'none' || !value.includes('$')) return { written: value, now: value };
  let written = '';
  let now = '';
  let last = 0;
  const re = server.variables === 'vscode' ? VSCODE_VAR : SHELL_VAR;
  for (const m of value.matchAll(re)) {
    const lit = value.slice(last, m.index);
    written += lit;
    now += lit;
    last = m.index + m[0].length;
    let name: string | undefined;
    let fixed: string | null = null;
    if (server.variables === 'vscode') {
      if (m[2]) name = m[2];
      else if (m[1] === 'workspaceFolder') fixed = server.workspace;
      else if (m[1] === 'userHome') fixed = home;
      else throw new ClientSubjectError(`${server.file}: ${field}: ${m[0]} is asked for or computed by the client, so it cannot be written into a scenario`);
      if (m[1] === 'workspaceFolder' && fixed === null)
        throw new ClientSubjectError(`${server.file}: ${field}: \${workspaceFolder} in a file that belongs to no workspace`);
    } else name = m[1] ?? m[3];
    const current = name === undefined ? undefined : env[name];
    const unset = current === undefined || current === '';
    // `${X:-d}` with X unset or empty: the client starts it with d, and so will the drill.
    if (fixed === null && server.variables === 'shell' && m[2] !== undefined && unset && !looksLikeSecret(m[2])) fixed = m[2];
    if (fixed !== null) {
      written += fixed;
      now += fixed;
    } else {
      written += `{{env.${name}}}`;
      now += m[2] !== undefined && server.variables === 'shell' && unset ? m[2] : (current ?? '');
    }
  }
  return { written: written + value.slice(last), now: now + value.slice(last) };
}

export function clientSubject(server: ConfiguredServer, env: NodeJS.ProcessEnv, home: string): ClientSubject {
  const command = translate(server.command, server, env, home, `${server.field}.command`);
  if (command.written.includes('{{'))
    throw new ClientSubjectError(`${server.file}: ${server.field}.command: a command taken from a variable cannot be checked before a run`);
  const args = server.args.map((a, i) => translate(a, server, env, home, `${server.field}.args[${i}]`));
  const cwd = server.cwd === null ? null : translate(server.cwd, server, env, home, `${server.field}.cwd`);
  const written: Record<string, string> = {};
  const launch: Record<string, string> = {};
  const values = envValues(server);
  for (const name of server.envNames) {
    const value = values[name];
    if (value === null) continue;
    if (value === undefined) {
      // Forwarded by name (Codex env_vars): the value is the user's own.
      written[name] = `{{env.${name}}}`;
      if (env[name] !== undefined) launch[name] = env[name]!;
      continue;
    }
    const ref = WHOLE_VARIABLE.exec(value);
    const expands = server.variables !== 'none' && ref !== null;
    if (expands) {
      const from = ref[1] ?? ref[3]!;
      const fallback = server.variables === 'shell' && ref[2] !== undefined && (env[from] === undefined || env[from] === '') ? ref[2] : null;
      // The default is what the client gives now; it is written only when it holds no secret.
      written[name] = fallback !== null && !isCredentialName(name) && !looksLikeSecret(fallback) ? fallback : `{{env.${from}}}`;
      if (fallback !== null) launch[name] = fallback;
      else if (env[from] !== undefined) launch[name] = env[from]!;
    } else if (isCredentialName(name) || looksLikeSecret(value)) {
      written[name] = `{{env.${name}}}`;
      launch[name] = value;
    } else {
      written[name] = value;
      launch[name] = value;
    }
  }
  if (cwd?.written.includes('{{'))
    throw new ClientSubjectError(`${server.file}: ${server.field}.cwd: a folder taken from a variable cannot be checked before a run`);
  return {
    name: server.name,
    command: command.written,
    // A secret written as an arg (`--api-key sk-...`) is referenced too, as <ENTRY>_ARG_<i>.
    args: args.map((a, i, all) => {
      const before = secretInArg(
        all.map((x) => x.written),
        i,
      );
      return before === null ? a.written : `${before}{{env.${envPrefix(server.name)}_ARG_${i}}}`;
    }),
    cwd: cwd?.written ?? null,
    env: written,
    launchEnv: launch,
    launchArgs: args.map((a) => a.now),
    launchCwd: cwd?.now ?? null,
  };
}
