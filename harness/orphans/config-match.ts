/**
 * `orphans.match` from the config file: extra server patterns, one regex a string. The file is
 * found and loaded by the one config loader `run` uses (harness/run/config-file.ts: the
 * first of crash-drill.config.{ts,mts,js,mjs} in the working folder, a TypeScript one
 * transpiled, every field validated and every problem naming the file and the field), so one
 * file serves `run` and the live-machine commands; for these it need name no scenarios.
 */
import { resolve } from 'node:path';
import { findConfigFile, loadConfigFile } from '../run/config-file.js';
import { userPattern, type ServerPattern } from './patterns.js';

export async function configPatterns(explicit: string | undefined, cwd = process.cwd()): Promise<ServerPattern[]> {
  const file = explicit ? resolve(cwd, explicit) : findConfigFile(cwd);
  if (!file) return [];
  const config = await loadConfigFile(file, { scenariosOptional: true });
  return (config.orphans?.match ?? []).map((m, i) => userPattern(m, 'config', `${file}: orphans.match[${i}]`));
}
