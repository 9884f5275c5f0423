/**
 * Reading a baseline file: JSON, validated, with every problem naming the file and the field
 * (`entries[2].check: expected a check id ...`), so a bad file is exit 3 before anything runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type ConfigProblem } from '../config/index.js';
import { formatFieldPath } from '../config/index.js';
import { problemsFromIssues } from '../config/index.js';
import { suggestKey } from '../config/index.js';
import type { BaselineEntryInfo, BaselineStatementInfo } from '../results/types.js';
import { statementKey } from '../expectation/baseline.js';
import type * as z from 'zod';
import { BaselineFileSchema, checksOfConformance } from './schema.js';

const FILE_KEYS = Object.keys(BaselineFileSchema.shape);
const ENTRY_KEYS = ['drill', 'check', 'verdict', 'reason'];
const STATEMENT_KEYS = ['server', 'statement', 'profile', 'reason'];

/** Unknown keys named with the baseline's own keys (and a "did you mean"); the rest as scenario problems read. */
function fileProblems(issues: readonly z.core.$ZodIssue[], raw: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = issue.path.length === 0 ? FILE_KEYS : issue.path[0] === 'statements' ? STATEMENT_KEYS : ENTRY_KEYS;
    for (const key of issue.keys) {
      const near = suggestKey(key, known);
      out.push({
        field: formatFieldPath([...issue.path, key]),
        message: near ? `unknown field; did you mean "${near}"?` : `unknown field; known: ${known.join(', ')}`,
      });
    }
  }
  return [
    ...out,
    ...problemsFromIssues(
      issues.filter((i) => i.code !== 'unrecognized_keys'),
      raw,
    ),
  ];
}

export interface Baseline {
  /** Absolute path of the file. */
  file: string;
  entries: BaselineEntryInfo[];
  /** Cleanup-expectation statements known not met (harness/expectation/baseline.ts); absent when the file lists none. */
  statements?: BaselineStatementInfo[];
}

/** The identity of an entry: one per drill key and check. */
export function entryKey(entry: Pick<BaselineEntryInfo, 'drill' | 'check'>): string {
  return `${entry.drill}\u0000${entry.check ?? ''}`;
}

/** Reads and validates a baseline; `missingIsEmpty` (an update may create the file) reads a missing file as empty. */
export function loadBaseline(file: string, options: { missingIsEmpty?: boolean } = {}): Baseline {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.missingIsEmpty) return { file: abs, entries: [] };
    throw new ConfigError({
      file: abs,
      message:
        code === 'ENOENT' ? 'no such baseline file (write one with `crash-drill baseline --out <file>`)' : `cannot read the baseline: ${(e as Error).message}`,
    });
  }
  return parseBaseline(text, abs);
}

export function parseBaseline(text: string, file: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError({ file, message: `expected JSON, got a syntax error: ${(e as Error).message}` });
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError({
      file,
      message: `expected an object { "version": 1, "entries": [...] }, got ${Array.isArray(raw) ? 'a list' : raw === null ? 'null' : typeof raw}`,
    });
  }
  const result = BaselineFileSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(fileProblems(result.error.issues, raw).map((p) => ({ file, ...p })));
  const problems: ConfigProblem[] = [];
  const first = new Map<string, number>();
  // An entry naming a conformance id stands for every check that tests it (crash-drill requirements).
  const entries = result.data.entries.flatMap((entry, i) => {
    const checks = entry.check === null ? [] : checksOfConformance(entry.check);
    return (checks.length > 0 ? checks.map((check) => ({ ...entry, check })) : [entry]).map((e) => ({ entry: e, i }));
  });
  entries.forEach(({ entry, i }) => {
    const key = entryKey(entry as BaselineEntryInfo);
    const at = first.get(key);
    if (at !== undefined)
      problems.push({
        file,
        field: formatFieldPath(['entries', i]),
        message: `duplicate entry: entries[${at}] already lists ${entry.drill} ${entry.check ?? '(the drill)'}`,
      });
    else first.set(key, i);
  });
  const seen = new Map<string, number>();
  (result.data.statements ?? []).forEach((entry, i) => {
    const at = seen.get(statementKey(entry));
    if (at !== undefined)
      problems.push({
        file,
        field: formatFieldPath(['statements', i]),
        message: `duplicate entry: statements[${at}] already lists ${entry.server} ${entry.statement}${entry.profile ? ` under ${entry.profile}` : ''}`,
      });
    else seen.set(statementKey(entry), i);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  const statements = result.data.statements as BaselineStatementInfo[] | undefined;
  return { file, entries: entries.map(({ entry }) => entry) as BaselineEntryInfo[], ...(statements ? { statements } : {}) };
}
