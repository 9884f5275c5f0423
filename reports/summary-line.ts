import type { RunResults } from './types.js';

/**
 * The plain closing line: `N passed, N failed, N unknown` (and `, N error` when a drill errored);
 * with a baseline, `N known` after the failures and `, N stale baseline entries` when some now pass.
 */
export function summaryLine(results: Pick<RunResults, 'summary' | 'baseline'>): string {
  const { pass, fail, unknown, error, known } = results.summary;
  const stale = results.baseline?.stale.length ?? 0;
  const knownPart = known !== undefined || results.baseline ? `, ${known ?? 0} known` : '';
  const stalePart = stale > 0 ? `, ${stale} stale baseline entr${stale === 1 ? 'y' : 'ies'}` : '';
  return `${pass} passed, ${fail} failed${knownPart}, ${unknown} unknown${error > 0 ? `, ${error} error` : ''}${stalePart}`;
}
