import type { RunResults } from './types.js';

/**
 * One line on the drills the plan left out as the same drill as one that ran
 * (harness/plan/not-repeated.ts), for the console and summary.md; null when none was.
 */
export function notRepeatedLine(results: Pick<RunResults, 'notRepeated'>): string | null {
  const n = results.notRepeated?.length ?? 0;
  if (n === 0) return null;
  const byEvidence = results.notRepeated?.filter((d) => d.byEvidence).length ?? 0;
  const shown =
    byEvidence === 0
      ? ''
      : `; ${byEvidence} of them ${byEvidence === 1 ? 'is a stop drill' : 'are stop drills'} left out because ${byEvidence === 1 ? 'its' : "each one's"} close drill showed the client quit with nothing of the drill left to reach, which is all that tells the two apart`;
  return `${n} drill${n === 1 ? ' was' : 's were'} not repeated: each is the same drill as one that ran (under client profiles that spawn and lose a server alike a drill gets the same inputs, and at idle and pre-dispatch the target call is never sent, so scenarios of one server that differ only in their target drill the same thing${shown}); the matrix shows each with that drill's verdict, marked =, and results.json lists them under notRepeated`;
}
