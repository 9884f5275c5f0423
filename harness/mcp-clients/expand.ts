/** Variables a client expands before spawning (`${env:NAME}`, `$NAME`, `${NAME:-default}`); an unknown value matches any text, and says so. */
import type { ConfiguredServer } from './types.js';

export type Expanded = { text: string; unknown: [] } | { regex: RegExp; unknown: string[] };

export interface ExpandContext {
  env: NodeJS.ProcessEnv;
  home: string;
}

const VSCODE = /\$\{([^}]+)\}/g;
const SHELL = /\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}|\$([A-Za-z_]\w*)/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function vscodeValue(name: string, server: ConfiguredServer, ctx: ExpandContext): string | null {
  if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? null;
  if (name === 'workspaceFolder') return server.workspace;
  if (name === 'workspaceFolderBasename') return server.workspace?.split('/').pop() ?? null;
  if (name === 'userHome') return ctx.home;
  if (name === 'pathSeparator' || name === '/') return '/';
  return null; // ${input:ID}, ${config:...}, ${command:...}: not knowable here
}

export function expand(value: string, server: ConfiguredServer, ctx: ExpandContext): Expanded {
  if (server.variables === 'none' || !value.includes('$')) return { text: value, unknown: [] };
  const unknown: string[] = [];
  const parts: { text: string; known: boolean }[] = [];
  let last = 0;
  const re = server.variables === 'vscode' ? VSCODE : SHELL;
  re.lastIndex = 0;
  for (const m of value.matchAll(re)) {
    parts.push({ text: value.slice(last, m.index), known: true });
    let v: string | null;
    if (server.variables === 'vscode') v = vscodeValue(m[1]!, server, ctx);
    else {
      // `${X:-d}`: d when X is unset or empty, as in a shell.
      const value = ctx.env[m[1] ?? m[3]!];
      v = m[2] !== undefined && (value === undefined || value === '') ? m[2] : (value ?? null);
    }
    if (v === null) unknown.push(m[0]);
    parts.push({ text: v ?? m[0], known: v !== null });
    last = m.index + m[0].length;
  }
  parts.push({ text: value.slice(last), known: true });
  if (unknown.length === 0) return { text: parts.map((p) => p.text).join(''), unknown: [] };
  return { regex: new RegExp(`^${parts.map((p) => (p.known ? escapeRegExp(p.text) : '.*')).join('')}$`, 's'), unknown };
}

export function matches(e: Expanded, actual: string): boolean {
  return 'text' in e ? e.text === actual : e.regex.test(actual);
}
