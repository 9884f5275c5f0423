/**
 * vitest matchers for a team's own tests:
 *
 *   import { expect } from 'vitest';
 *   import { crashDrillMatchers } from 'mcp-crash-drill/vitest';
 *   expect.extend(crashDrillMatchers);
 *   expect(drill).toExitOnEof();
 *
 * Each takes a DrillResult (from runDrills) and passes when its check passed; the failure
 * message shows the evidence: the check's summary, the survivors' command lines, the duplicate
 * effects, the follow-up.
 */
import type { CheckId } from '../checks/index.js';
import type { DrillResult } from '../results/types.js';

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function checkMatcher(id: CheckId, what: string) {
  return function (this: { isNot?: boolean }, received: unknown): MatcherResult {
    const drill = received as DrillResult;
    if (!drill || !Array.isArray(drill.checks)) {
      return { pass: false, message: () => `expected a DrillResult (from runDrills), got ${typeof received}` };
    }
    const name = `${drill.scenario} ${drill.point}/${drill.mode}`;
    const check = drill.checks.find((c) => c.id === id);
    if (!check) {
      return { pass: false, message: () => `${name}: the check ${id} did not apply to this drill (verdict ${drill.verdict}: ${drill.reason})` };
    }
    const details = evidenceLines(drill, id);
    return {
      pass: check.verdict === 'pass',
      message: () =>
        this.isNot
          ? `${name}: expected the server not to ${what}, but ${id} passed: ${check.summary}`
          : [`${name}: expected the server to ${what}; ${id} is ${check.verdict}: ${check.summary}`, ...details].join('\n'),
    };
  };
}

function evidenceLines(drill: DrillResult, id: CheckId): string[] {
  const lines: string[] = [];
  if (id === 'no-survivors')
    for (const s of drill.survivors) lines.push(`  survivor pid ${s.pid} (ppid ${s.ppid}, found by ${s.foundBy.join('+')}): ${s.cmdline.join(' ')}`);
  if (id === 'idempotent-effects') {
    const data = drill.checks.find((c) => c.id === id)?.data as
      | { duplicates?: string[][]; effects?: Array<{ id: string; op: string; key: string | null }> }
      | undefined;
    for (const group of data?.duplicates ?? []) lines.push(`  duplicate effects: ${group.join(', ')}`);
    for (const e of data?.effects ?? []) lines.push(`  effect ${e.id} (${e.op}) key ${e.key ?? 'none'}`);
  }
  if (id === 'exit-on-eof' && drill.exit)
    lines.push(`  exit: ${drill.exit.class}${drill.exit.code !== null ? ` code ${drill.exit.code}` : ''}${drill.exit.signal ? ` ${drill.exit.signal}` : ''}`);
  for (const f of drill.incident?.followUp ?? []) lines.push(`  follow-up: ${f}`);
  if (drill.evidence) lines.push(`  evidence: ${drill.evidence.file} (head ${drill.evidence.head.slice(0, 12)})`);
  return lines;
}

export const crashDrillMatchers = {
  toExitOnEof: checkMatcher('exit-on-eof', 'exit on its own when its input closed'),
  toLeaveNoSurvivors: checkMatcher('no-survivors', 'leave no process behind'),
  toKeepStdoutClean: checkMatcher('stdout-clean', 'write only JSON-RPC on stdout'),
  toBeIdempotent: checkMatcher('idempotent-effects', 'leave exactly one effect per operation'),
  toDenyAfterRevocation: checkMatcher('denied-after-revocation', 'lose its authority once the session was revoked'),
  toStayQuietAfterLoss: checkMatcher('quiet-after-loss', 'stop writing once its client was gone'),
  toSettleItsJobs: checkMatcher('jobs-settled', 'settle every remote job it started'),
};

export interface CrashDrillMatchers<R = unknown> {
  toExitOnEof(): R;
  toLeaveNoSurvivors(): R;
  toKeepStdoutClean(): R;
  toBeIdempotent(): R;
  toDenyAfterRevocation(): R;
  toStayQuietAfterLoss(): R;
  toSettleItsJobs(): R;
}
