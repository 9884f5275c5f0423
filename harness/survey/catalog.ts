/**
 * Loads a survey catalog: YAML in, validated entries out. A wrong field is one ConfigError per
 * problem, `file: servers[3].version: expected ...` (exit 3), before anything is installed.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError, type ConfigProblem } from '../config/index.js';
import { problemsFromIssues } from '../config/index.js';
import { type Catalog, type CatalogEntry, CatalogSchema } from '../config/index.js';

export function loadCatalog(file: string): Catalog {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError({ file, message: `cannot read the catalog: ${(error as Error).message}` });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
  const err = doc.errors[0];
  if (err !== undefined) {
    const pos = lines.linePos(err.pos[0]);
    throw new ConfigError({ file, line: pos?.line, col: pos?.col, message: `YAML syntax error: ${err.message}` });
  }
  const raw = doc.toJS() as unknown;
  const result = CatalogSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(problemsFromIssues(result.error.issues, raw).map((p) => ({ ...p, file })));
  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  result.data.servers.forEach((s, i) => {
    if (seen.has(s.id)) problems.push({ file, field: `servers[${i}].id`, message: `"${s.id}" is the id of an earlier entry; ids must be unique` });
    seen.add(s.id);
    if (s.registry !== 'npm' && s.registry !== 'local' && s.bin === undefined && s.cannotStart === undefined)
      problems.push({ file, field: `servers[${i}].bin`, message: `missing; expected the program a ${s.registry} package installs` });
    const bad = Object.keys(s.secrets).filter((k) => k in s.env);
    if (bad.length > 0) problems.push({ file, field: `servers[${i}].secrets`, message: `${bad.join(', ')} also in env; a variable is a secret or not` });
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/** The entries `--only` names, in catalog order; an unknown id is a user error naming it. */
export function selectEntries(catalog: Catalog, file: string, only: readonly string[] | undefined): CatalogEntry[] {
  if (!only || only.length === 0) return catalog.servers;
  const ids = new Set(catalog.servers.map((s) => s.id));
  const unknown = only.filter((id) => !ids.has(id));
  if (unknown.length > 0)
    throw new ConfigError({ file, field: '--only', message: `no entry ${unknown.map((u) => `"${u}"`).join(', ')}; ids: ${[...ids].join(', ')}` });
  return catalog.servers.filter((s) => only.includes(s.id));
}
