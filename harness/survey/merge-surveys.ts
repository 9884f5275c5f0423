/**
 * `crash-drill survey --merge`: the table of sharded surveys as one. Each server's run folder is a
 * whole plan, so rows go back in catalog order and folders are copied; refuses another catalog or
 * profiles, or a server in two shards.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../util/paths.js';
import { loadCatalog } from './catalog.js';
import { SURVEY_FILES, SurveyError, writeTable } from './run-survey.js';
import type { SurveyRow, SurveyTable } from './table.js';

export function mergeSurveys(dirs: readonly string[], outDir: string): SurveyTable {
  const tables = dirs.map((dir) => {
    const file = join(dir, SURVEY_FILES.json);
    if (!existsSync(file)) throw new SurveyError(`${dir}: no ${SURVEY_FILES.json} (is this a survey folder?)`);
    return { dir, table: JSON.parse(readFileSync(file, 'utf8')) as SurveyTable };
  });
  const first = tables[0]!.table;
  const rows = new Map<string, SurveyRow>();
  for (const { dir, table } of tables) {
    if (table.version !== 1) throw new SurveyError(`${dir}: ${SURVEY_FILES.json} is not of version 1`);
    if (table.catalog !== first.catalog) throw new SurveyError(`${dir}: a survey of ${table.catalog}, not of ${first.catalog}`);
    if (table.profiles.join(',') !== first.profiles.join(','))
      throw new SurveyError(`${dir}: profiles ${table.profiles.join(', ')}, not ${first.profiles.join(', ')}`);
    for (const row of table.rows) {
      if (rows.has(row.id)) throw new SurveyError(`${dir}: ${row.id} is in two of the folders`);
      rows.set(row.id, row);
    }
  }
  const order = loadCatalog(resolve(packageRoot(), first.catalog)).servers.map((s) => s.id);
  const merged: SurveyTable = { ...first, rows: [...rows.values()].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)) };
  const out = resolve(outDir);
  for (const { dir } of tables) {
    for (const sub of ['servers', 'reports']) if (existsSync(join(dir, sub))) cpSync(join(dir, sub), join(out, sub), { recursive: true });
  }
  writeTable(merged, out);
  return merged;
}
