import { promises as fs } from 'node:fs';
import { ConfigError, type ConfigProblem, displayPath } from './errors.js';
import { findScenarioFiles } from './find-files.js';
import { parseScenario, type ScenarioOptions } from './parse.js';
import type { Scenario } from './types.js';

/** Loads every scenario from files and folders, sorted by path; every file is read first, so one ConfigError lists every problem. */
export async function loadScenarios(paths: string[], options: ScenarioOptions = {}): Promise<Scenario[]> {
  const files = await findScenarioFiles(paths);
  const scenarios: Scenario[] = [];
  const problems: ConfigProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      problems.push({ file, message: `cannot read: ${(e as Error).message}` });
      continue;
    }
    try {
      scenarios.push(parseScenario(text, file, options));
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(...e.problems);
    }
  }
  const firstFileOf = new Map<string, string>();
  for (const s of scenarios) {
    const first = firstFileOf.get(s.id);
    if (first === undefined) firstFileOf.set(s.id, s.file);
    else {
      problems.push({
        file: s.file,
        field: 'id',
        message: `duplicate id "${s.id}", already used by ${displayPath(first)}; ids must be unique across all loaded files`,
      });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return scenarios;
}
