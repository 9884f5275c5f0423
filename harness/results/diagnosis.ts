/**
 * A diagnosis for every failed check: what the drill observed that explains the failure, the
 * server's SDK and its known behaviour at EOF, and the concrete change for this case, instead
 * of a label. Derived from the evidence alone (the /proc facts are evidence too: event
 * `diagnosis-facts`, harness/drill/executor/diagnosis-facts.ts), so `crash-drill check` gives the same.
 */
import type { CheckId, CheckResult } from '../checks/index.js';
import type { DrillEvidence } from '../evidence/types.js';
import { containerExitCause, containerSurvivorsCause } from './diagnosis-containers.js';
import { idempotencyCause, jobsCause, quietCause, revocationCause, stdoutCause } from './diagnosis-effects.js';
import { type Cause, serverSlow, serverStayedUp } from './diagnosis-server.js';
import { survivorsCause } from './diagnosis-survivors.js';

export interface Diagnosis {
  /** The failed check this explains. */
  check: CheckId;
  /** One line: the cause, as the drill observed it. */
  cause: string;
  /** What was observed that shows it, one fact a line (from /proc at the deadline or snapshot, the journal, the record). */
  observed: string[];
  /** The server's SDK's known behaviour that bears on it, with its public issue; null when none. */
  sdk: string | null;
  /** The change that fixes this case. */
  fix: string;
}

function causeOf(evidence: DrillEvidence, check: CheckResult): Cause | null {
  switch (check.id) {
    case 'exit-on-eof': {
      // In a container the drill's process is the engine CLI: the container is the server.
      const boxed = containerExitCause(evidence);
      if (boxed) return boxed;
      const data = check.data as { elapsedMs?: number; deadlineMs?: number; endedBy?: string };
      if (data.elapsedMs !== undefined && data.deadlineMs !== undefined && data.endedBy === undefined)
        return serverSlow(evidence, data.elapsedMs, data.deadlineMs);
      return serverStayedUp(evidence);
    }
    case 'no-survivors':
      return containerSurvivorsCause(evidence) ?? survivorsCause(evidence);
    case 'stdout-clean':
      return stdoutCause(evidence);
    case 'idempotent-effects':
      return idempotencyCause(evidence);
    case 'quiet-after-loss':
      return quietCause(evidence);
    case 'jobs-settled':
      return jobsCause(evidence);
    case 'denied-after-revocation':
      return revocationCause(evidence);
    default:
      return null;
  }
}

export function diagnose(evidence: DrillEvidence, checks: CheckResult[]): Diagnosis[] {
  return checks.flatMap((check) => {
    if (check.verdict !== 'fail') return [];
    const cause = causeOf(evidence, check);
    return cause ? [{ check: check.id, ...cause }] : [];
  });
}
