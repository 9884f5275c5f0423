/**
 * Scenario ids are unique across a run's files (harness/config/load.ts), so init refuses, before
 * writing, when a file it does not write has the id of one it does: `run` would refuse both.
 */
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../config/index.js';
import { findScenarioFiles } from '../config/index.js';
import { parseScenario } from '../config/index.js';
import { displayPath } from '../util/paths.js';

/** One line per file under `scenarioDir`, not among `planned`, whose id one of `planned` takes. */
export async function idClashes(scenarioDir: string, planned: ReadonlyArray<{ file: string; id: string }>): Promise<string[]> {
  if (!statSync(scenarioDir, { throwIfNoEntry: false })?.isDirectory()) return [];
  let found: string[];
  try {
    found = await findScenarioFiles([scenarioDir]);
  } catch (error) {
    if (error instanceof ConfigError) return []; // no scenario file there
    throw error;
  }
  const ours = new Map(planned.map((p) => [p.id, p.file]));
  const writing = new Set(planned.map((p) => p.file));
  const lines: string[] = [];
  for (const file of found) {
    if (writing.has(file)) continue;
    let id: string;
    try {
      id = parseScenario(readFileSync(file, 'utf8'), file).id;
    } catch {
      // A file that cannot be read or does not load is not init's to judge: `run` names it.
      continue;
    }
    const mine = ours.get(id);
    if (mine !== undefined) lines.push(`${displayPath(file)} has the id "${id}", which init writes to ${displayPath(mine)}`);
  }
  return lines;
}
