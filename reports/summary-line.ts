import type { RunResults } from './types.js';

/** The plain closing line: `N passed, N failed, N unknown` (and `, N error` when a drill errored). */
export function summaryLine(results: RunResults): string {
  const { pass, fail, unknown, error } = results.summary;
  return `${pass} passed, ${fail} failed, ${unknown} unknown${error > 0 ? `, ${error} error` : ''}`;
}
