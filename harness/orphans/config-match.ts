/**
 * `orphans.match` from the config file: extra server patterns, one regex a string. Read from a
 * JavaScript config (crash-drill.config.js / .mjs) by importing its default export; the
 * config loader (harness/run/config-file.ts) accepts the key too, so one file serves
 * `run` and `orphans`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PatternError, userPattern, type ServerPattern } from './patterns.js';

const NAMES = ['crash-drill.config.mjs', 'crash-drill.config.js'];

export async function configPatterns(explicit: string | undefined, cwd = process.cwd()): Promise<ServerPattern[]> {
  const file = explicit ? resolve(cwd, explicit) : NAMES.map((n) => resolve(cwd, n)).find((f) => existsSync(f));
  if (!file) return [];
  if (!existsSync(file)) throw new PatternError(`${file}: no such config file`);
  if (!/\.m?js$/.test(file)) throw new PatternError(`${file}: orphans reads orphans.match from a .js or .mjs config only`);
  let config: unknown;
  try {
    config = ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
  } catch (error) {
    throw new PatternError(`${file}: cannot load the config: ${(error as Error).message.split('\n')[0]}`);
  }
  const orphans = (config as { orphans?: unknown } | undefined)?.orphans;
  if (orphans === undefined) return [];
  const match = (orphans as { match?: unknown }).match;
  if (!Array.isArray(match) || !match.every((m) => typeof m === 'string')) {
    throw new PatternError(`${file}: orphans.match: expected a list of regular expressions (strings), got ${JSON.stringify(match)}`);
  }
  return match.map((m, i) => userPattern(m, 'config', `${file}: orphans.match[${i}]`));
}
