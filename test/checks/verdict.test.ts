import { describe, expect, it } from 'vitest';
import { runChecks, type CheckResult } from '../../harness/checks/all-checks.js';
import { drillVerdict } from '../../harness/results/judge.js';
import { EvidenceBuilder, passingDrill, survivor } from './evidence-builder.js';

const pass = (id: CheckResult['id'], summary: string): CheckResult => ({ id, verdict: 'pass', summary, data: {} });
const fail = (id: CheckResult['id'], summary: string): CheckResult => ({ id, verdict: 'fail', summary, data: {} });
const unknown = (id: CheckResult['id'], summary: string): CheckResult => ({ id, verdict: 'unknown', summary, data: {} });

describe('drillVerdict', () => {
  it('passes when every applicable check passed, joining their summaries', () => {
    const ev = passingDrill().build();
    expect(drillVerdict(ev, runChecks(ev))).toEqual({
      verdict: 'pass',
      reason:
        'the server exited 50 ms after losing its client (code 0); no process of the drill remained 500 ms after the client was lost; all 2 stdout lines were JSON-RPC messages',
    });
  });

  it('gives error whenever the harness failed, whatever the checks say', () => {
    const ev = passingDrill().harnessError(1900, 'contain', 'SIGKILL did not end pid 5001').build();
    const checks = [fail('exit-on-eof', 'too slow'), unknown('no-survivors', 'no snapshot'), pass('stdout-clean', 'clean')];
    expect(drillVerdict(ev, checks)).toEqual({ verdict: 'error', reason: 'contain: SIGKILL did not end pid 5001' });
    expect(drillVerdict(ev, [])).toEqual({ verdict: 'error', reason: 'contain: SIGKILL did not end pid 5001' });
  });

  it('names the first harness error when there are several', () => {
    const ev = passingDrill().harnessError(1900, 'spawn', 'ENOENT').harnessError(1950, 'contain', 'later').build();
    expect(drillVerdict(ev, []).reason).toBe('spawn: ENOENT');
  });

  it('gives fail over unknown, listing only the failed checks', () => {
    const ev = passingDrill().build();
    const checks = [fail('exit-on-eof', 'too slow'), unknown('no-survivors', 'no snapshot'), fail('stdout-clean', 'noise')];
    expect(drillVerdict(ev, checks)).toEqual({ verdict: 'fail', reason: 'exit-on-eof: too slow | stdout-clean: noise' });
  });

  it('gives fail over a point-timeout (a noisy stdout is a failure even if the point was missed)', () => {
    const ev = new EvidenceBuilder().start(1000).stdoutNoise(1100, 'hello').pointTimeout(4000, 'idle', 3000, 'setup hung').build();
    const checks = runChecks(ev);
    expect(checks.map((c) => c.verdict)).toEqual(['unknown', 'unknown', 'fail']);
    expect(drillVerdict(ev, checks)).toEqual({ verdict: 'fail', reason: 'stdout-clean: 1 stdout line not JSON-RPC, first: "hello"' });
  });

  it('gives unknown with the point-timeout reason, even when the remaining checks passed', () => {
    const ev = new EvidenceBuilder({ point: 'confirmed' }).start(1000).rpcIn(1100).pointTimeout(6000, 'confirmed', 5000, 'the remote never committed').build();
    expect(drillVerdict(ev, [pass('stdout-clean', 'clean')])).toEqual({
      verdict: 'unknown',
      reason: 'kill point confirmed not reached within 5000 ms: the remote never committed',
    });
  });

  it('gives unknown listing the unknown checks when nothing failed', () => {
    const ev = passingDrill().build();
    const checks = [pass('exit-on-eof', 'fast'), unknown('no-survivors', 'no process snapshot was taken after the grace period')];
    expect(drillVerdict(ev, checks)).toEqual({
      verdict: 'unknown',
      reason: 'no-survivors: no process snapshot was taken after the grace period',
    });
  });

  it('gives unknown when no check applies, never a pass', () => {
    const ev = passingDrill({ mode: 'hang', expect: { stdoutClean: false } }).build();
    const checks = runChecks(ev);
    expect(checks).toEqual([]);
    expect(drillVerdict(ev, checks)).toEqual({ verdict: 'unknown', reason: 'no check applies to this drill' });
  });

  it('fails the whole drill on one survivor from a live run of the checks', () => {
    const ev = new EvidenceBuilder().start(1000).spawned(1010).clientLost(1200).serverExit(1250).snapshot(1700, [survivor()]).build();
    expect(drillVerdict(ev, runChecks(ev))).toEqual({
      verdict: 'fail',
      reason: 'no-survivors: 1 process survived 500 ms after the client was lost: pid 5001 (ppid 1) node leak.js',
    });
  });
});
