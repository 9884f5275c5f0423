/**
 * `orphans.match` (extra server regexes) from the config file, loaded by `run`'s loader
 * (harness/run/config-file.ts), so one file serves both; here it need name no scenarios.
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
