/**
 * An MCP stdio server by evidence, never by runtime name: a named server pattern (defaults,
 * `orphans.match`, `--match`) or a drill marker, and stdio pipes or sockets (find-orphans.ts).
 */
import { UserError } from '../util/errors.js';

export type PatternSource = 'default' | 'config' | 'flag';

export interface ServerPattern {
  name: string;
  source: PatternSource;
  regex: RegExp;
}

export const DEFAULT_PATTERNS: readonly ServerPattern[] = [
  { name: 'mcp', source: 'default', regex: /mcp/i },
  { name: '@modelcontextprotocol/', source: 'default', regex: /@modelcontextprotocol\// },
  // npm rewrites its title to `npm exec <pkg>`; uvx and pnpm dlx keep theirs.
  { name: 'npx/uvx of an MCP package', source: 'default', regex: /\b(npx|uvx|npm exec|pnpm dlx|bunx)\b.*(mcp|@modelcontextprotocol\/)/i },
  { name: 'docker run -i', source: 'default', regex: /\b(docker|podman)\s+run\b(?=.*\s(-i|-it|-ti|--interactive)(\s|$))/ },
];

export class PatternError extends UserError {
  readonly code = 'CRASH_DRILL_ORPHANS_PATTERN';
}

/** A user's regex; `where` names the flag or the config field in the error. */
export function userPattern(source: string, from: Exclude<PatternSource, 'default'>, where: string): ServerPattern {
  try {
    return { name: source, source: from, regex: new RegExp(source) };
  } catch (error) {
    throw new PatternError(`${where}: expected a regular expression, got ${JSON.stringify(source)} (${(error as Error).message})`);
  }
}

/** The patterns a command line matches, as evidence lines. */
export function matchEvidence(command: string, patterns: readonly ServerPattern[]): string[] {
  return patterns
    .filter((p) => p.regex.test(command))
    .map((p) => `command matches ${p.source === 'default' ? 'default' : p.source === 'config' ? 'config' : '--match'} pattern ${JSON.stringify(p.name)}`);
}
