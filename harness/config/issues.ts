import type * as z from 'zod';
import type { ConfigProblem } from './errors.js';
import { formatFieldPath, valueAt } from './field-path.js';
import { KNOWN_KEYS } from './schema.js';
import { suggestKey } from './suggest.js';

/** zod issues as problems in the file's own words, the found value read from the raw document: `points[1]: expected one of ..., got "sideways"`. */
export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], raw: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of issues) {
    const inner = matchedBranch(issue);
    if (inner !== undefined) {
      out.push(...problemsFromIssues(inner, raw));
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ field: formatFieldPath([...issue.path, key]), message: unknownKeyMessage(issue.path, key) });
      }
      continue;
    }
    out.push({ field: formatFieldPath(issue.path), message: issueMessage(issue, valueAt(raw, issue.path)) });
  }
  return out;
}

/**
 * zod fails a union as a whole when every branch failed. A branch whose problems all lie below
 * the root accepted the value's kind; when exactly one did, its issues are the ones to show.
 */
function matchedBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const below = (i: z.core.$ZodIssue): boolean => i.path.length > 0 || i.code === 'unrecognized_keys';
  const branches = issue.errors.filter((branch) => branch.length > 0 && branch.every(below));
  if (branches.length !== 1) return undefined;
  return branches[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as z.core.$ZodIssue);
}

function issueMessage(issue: z.core.$ZodIssue, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      // A refused field (z.never) says why in its own words.
      if (issue.expected === 'never') return issue.message;
      const expected = typeName(issue.expected);
      if (found === undefined) return `missing; expected ${expected}`;
      const hint = issue.expected === 'string' && (typeof found === 'number' || typeof found === 'boolean') ? ' (quote it to make it a string)' : '';
      return `expected ${expected}, got ${describeValue(found)}${hint}`;
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}, got ${describeValue(found)}`;
    case 'too_small':
      return `expected ${lowerBound(issue)}, got ${describeValue(found)}`;
    case 'too_big':
      return `expected at most ${String(issue.maximum)}, got ${describeValue(found)}`;
    case 'invalid_key':
      // Record keys: the issue's path already ends with the bad key.
      return `${issue.issues[0]?.message ?? 'invalid key'}, got key ${JSON.stringify(String(issue.path.at(-1)))}`;
    case 'invalid_format':
    case 'invalid_union':
      return `${issue.message}, got ${describeValue(found)}`;
    default:
      return issue.message;
  }
}

function lowerBound(issue: z.core.$ZodIssueTooSmall): string {
  const min = Number(issue.minimum);
  if (issue.origin === 'array') return min <= 1 ? 'a non-empty list' : `a list of at least ${min} items`;
  if (issue.origin === 'string') return min <= 1 ? 'a non-empty string' : `a string of at least ${min} characters`;
  if (min === 0) return issue.inclusive ? 'a non-negative integer' : 'a positive integer';
  return issue.inclusive ? `at least ${min}` : `more than ${min}`;
}

function typeName(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'int':
      return 'an integer';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'record':
      return 'a mapping';
    case 'array':
      return 'a list';
    default:
      return expected;
  }
}

/** How a found value reads in a message: strings quoted, containers by kind. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'an empty value (null)';
  if (typeof v === 'string') return v.length > 60 ? `${JSON.stringify(v.slice(0, 57))}...` : JSON.stringify(v);
  if (typeof v === 'number') return `the number ${String(v)}`;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : 'a list';
  if (typeof v === 'object') return 'a mapping';
  return typeof v;
}

function unknownKeyMessage(parentPath: readonly PropertyKey[], key: string): string {
  const pattern = parentPath.map((s, i) => (typeof s === 'number' ? '[]' : i === 0 ? String(s) : `.${String(s)}`)).join('');
  const known = KNOWN_KEYS[pattern] ?? [];
  const near = suggestKey(key, known);
  if (near !== undefined) return `unknown field, did you mean "${near}"?`;
  // A key written at the wrong level, e.g. `command` at the top instead of under `subject`.
  for (const [where, keys] of Object.entries(KNOWN_KEYS)) {
    if (where === pattern || where === '') continue;
    const elsewhere = suggestKey(key, keys);
    if (elsewhere !== undefined && elsewhere.replace(/[-_]/g, '') === key.toLowerCase().replace(/[-_]/g, '')) {
      return `unknown field here, did you mean ${where}.${elsewhere}? (known here: ${known.join(', ')})`;
    }
  }
  return `unknown field; known: ${known.join(', ')}`;
}
