import type { ProcIdentity } from '../../observe/index.js';

/**
 * How the sending process was found: among the drills' candidate pids, as the harness's own
 * process (`self`), by a scan of every process, or `none`: it could not be (e.g. it already died).
 */
export type AttributionMethod = 'candidate' | 'self' | 'scan' | 'none';

export interface Attribution {
  process?: ProcIdentity;
  method: AttributionMethod;
  /** The drill whose candidate list or CRASH_DRILL_RUN names the process. */
  drillId?: string;
  /** Wall time the lookup took, in ms. */
  costMs: number;
}
