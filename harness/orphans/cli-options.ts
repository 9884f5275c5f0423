/** What the three live-machine commands share on the command line. */
import { InvalidArgumentError, Option } from 'commander';
import { BACKEND_NAMES } from './backend.js';
import { configPatterns } from './config-match.js';
import { DEFAULT_PATTERNS, userPattern, type ServerPattern } from './patterns.js';

export function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected a number of seconds (0 or more), got "${value}"`);
  return n;
}

export function pidArgument(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a process id (a positive whole number), got "${value}"`);
  return n;
}

export const backendOption = () =>
  new Option('--backend <name>', 'how to read the machine (default: /proc where it exists, else ps + lsof)').choices(BACKEND_NAMES as string[]);

export const repeatable = (v: string, p: string[] = []) => [...p, v];

/** The defaults (unless --no-defaults), then the config's orphans.match, then each --match. */
export async function serverPatterns(options: { match?: string[]; defaults: boolean; config?: string }): Promise<ServerPattern[]> {
  return [
    ...(options.defaults ? DEFAULT_PATTERNS : []),
    ...(await configPatterns(options.config)),
    ...(options.match ?? []).map((m, i) => userPattern(m, 'flag', `--match #${i + 1}`)),
  ];
}
