/** The page's own types, apart from the modules that render it (page.ts, matrix.ts, drill-section.ts all use them). */
import type { DrillResult } from '../types.js';

/** What the page itself shows of a drill (its line, the matrix, the expectation's links): a large run's page holds only this. */
export type DrillLine = Pick<DrillResult, 'id' | 'key' | 'scenario' | 'point' | 'mode' | 'verdict' | 'reason' | 'durationMs'> & {
  subject: { name: string };
  clientProfile: DrillResult['clientProfile'];
  clientVersions?: string;
};
