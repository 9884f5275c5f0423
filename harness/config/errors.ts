import { displayPath } from '../util/paths.js';
import { UserError } from '../util/errors.js';

/** One thing wrong with one scenario file (or with the set of files). */
export interface ConfigProblem {
  file?: string;
  field?: string;
  /** 1-based position, for YAML syntax errors */
  line?: number;
  col?: number;
  message: string;
}

/** Every configuration mistake the user can fix (exit 3); each line reads `file: field: what was expected, got what`, as Playwright's errorWithFile. */
export class ConfigError extends UserError {
  readonly code = 'CRASH_DRILL_CONFIG' as const;
  file?: string;
  field?: string;
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem | ConfigProblem[]) {
    const list = Array.isArray(problems) ? problems : [problems];
    if (list.length === 0) throw new TypeError('ConfigError needs at least one problem');
    super(list.map(formatProblem).join('\n'));
    this.problems = list;
    this.file = list[0].file;
    this.field = list[0].field;
  }
}

export function formatProblem(p: ConfigProblem): string {
  const parts: string[] = [];
  if (p.file !== undefined) {
    // `file:line:col` is what editors and terminals turn into a link.
    const at = p.line !== undefined ? `:${p.line}${p.col !== undefined ? `:${p.col}` : ''}` : '';
    parts.push(displayPath(p.file) + at);
  }
  if (p.field !== undefined && p.field !== '') parts.push(p.field);
  parts.push(p.message);
  return parts.join(': ');
}

/** Re-exported: the one displayPath (harness/util/paths.ts), which config messages use. */
export { displayPath };
