/**
 * Scenario ids are unique across the files a run loads (harness/config/load.ts refuses two), and
 * init writes its files where an earlier init may have written others: before the lifecycle
 * scenario, init wrote one file per tool at the top of the folder (`scenarios/<tool>.yaml`),
 * which now goes to `scenarios/may-write/<tool>.yaml` under the same id. Overwriting never
 * removes the old file, so init refuses, before writing anything, when a scenario file it does not
 * write has the id of one it does: `run` would refuse both.
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
