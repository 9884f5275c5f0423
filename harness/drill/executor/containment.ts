import { contain, type DrillTracker } from '../../observe/index.js';
import type { EvidenceRecorder } from './recorder.js';

/**
 * Ends every process of the drill (SIGTERM, wait, SIGKILL only if needed, each process
 * re-identified before each signal) and records each signal the harness sent as evidence, from
 * the step's fields (harness/observe/containment-step.ts), so a check can tell an exit the
 * harness caused from one the server chose.
 */
export async function containDrill(tracker: DrillTracker, rec: EvidenceRecorder, termWaitMs: number): Promise<void> {
  const records = await contain(tracker, { termWaitMs });
  for (const record of records) {
    for (const step of record.steps) {
      if (step.kind === 'signal')
        rec.harness(
          { type: 'signal', pid: step.target.pid, startTime: step.target.startTime, signal: step.signal, by: 'harness', result: step.result },
          step.t,
        );
    }
  }
  rec.harness({ type: 'containment', records });
  tracker.stop();
}
