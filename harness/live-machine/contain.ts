/**
 * `crash-drill contain <pid>` without the printing: harness/containment/process.ts on this machine's
 * table and snapshot (inspect.ts), with its incident record and evidence log.
 */
import { containProcess, type ContainStep, type MemberRecord, type ProcessContainment, type ProcessContainOptions } from '../containment/process.js';
import type { ContainOutcome } from '../containment/step.js';
import type { ConfigMatcher } from '../mcp-clients/matcher.js';
import type { IncidentRecord } from '../results/incident.js';
import { appendEvidence, evidenceFile, type AppendedLog } from './evidence.js';
import { containIncident } from './incident.js';
import { inspectProcess, type Snapshot } from './inspect.js';
import type { Backend } from './types.js';

export type { ContainOutcome, ContainStep, MemberRecord };

/** The command's options: containment's, with this machine's backend and client configurations in place of the snapshot it takes. */
export interface ContainOrphanOptions extends Omit<ProcessContainOptions<Snapshot>, 'table' | 'snapshot'> {
  backend: Backend;
  /** Where the evidence log goes (none without it). */
  outDir?: string;
  /** The machine's MCP client configurations: the snapshot says which entry the process is. */
  configs?: ConfigMatcher;
}

/** What the command prints of containment (its outcome, steps, probes, members), and what it kept. */
export interface ContainResult
  extends Pick<ProcessContainment<Snapshot>, 'pid' | 'startTime' | 'outcome' | 'reason' | 'steps' | 'revocations' | 'probes' | 'members'> {
  incident: IncidentRecord | null;
  evidence: AppendedLog | null;
  /** Which client configuration entries the process is (from its snapshot); null: none were read, or no snapshot. */
  configured: Snapshot['configured'];
}

export async function containOrphan(opts: ContainOrphanOptions): Promise<ContainResult> {
  const { backend, outDir, configs, ...rest } = opts;
  const c = await containProcess({ ...rest, table: backend, snapshot: (pid) => inspectProcess(backend, pid, configs) });
  const { snapshot } = c;
  const result: ContainResult = {
    pid: c.pid,
    startTime: c.startTime,
    outcome: c.outcome,
    reason: c.reason,
    steps: c.steps,
    revocations: c.revocations,
    probes: c.probes,
    members: c.members,
    incident: null,
    evidence: null,
    configured: snapshot?.configured ?? null,
  };
  // Refused before the snapshot: nothing was looked at, nothing to keep.
  if (!snapshot) return result;
  const incident = containIncident({
    snapshot,
    t0: c.t0,
    wall0: c.wall0,
    revokedAt: c.revokedAt,
    revocations: c.revocations,
    probes: c.probes,
    termination: c.reason,
    forced: c.forced,
    survivors: c.survivors,
  });
  const records: Record<string, unknown>[] = [
    { type: 'orphan-snapshot', snapshot },
    { type: 'contain-steps', steps: c.steps, members: c.members, revocations: c.revocations, probes: c.probes, outcome: c.outcome, reason: c.reason },
    { type: 'incident', incident },
  ];
  const evidence = outDir ? appendEvidence(evidenceFile(outDir, c.pid, snapshot.process.startTime), records) : null;
  return { ...result, incident, evidence };
}
