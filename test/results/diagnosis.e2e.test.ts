/**
 * Each diagnosis both ways, on real servers through the real CLI: the fake server whose fault
 * it names gets it, and the servers with another fault (or none) do not. The diagnosis comes
 * from /proc facts recorded in the evidence during the drill (`diagnosis-facts`), and judging
 * the saved log again gives the same diagnosis (harness/results/diagnosis.ts is pure).
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import type { Diagnosis, DrillResult, RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';
import { DAEMON_FIX, NODE_CHILD_FIX, NODE_STDOUT_FIX, POPEN_FIX, SDK1_FIX, THREAD_FIX } from '../support/diagnosis-fixes.js';

const ROOT = packageRoot();

async function drill(args: string[]): Promise<{ results: RunResults; out: string }> {
  const out = tempDir('cd-diagnosis-');
  const run = await runCli(['run', ...args, '--out', out, '--reporter', 'json']);
  expect([0, 1], run.stderr).toContain(run.code);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  expect(markedProcesses(results.runId)).toEqual([]);
  return { results, out };
}

function byKey(results: RunResults): Map<string, DrillResult> {
  return new Map(results.drills.map((d) => [d.key, d]));
}

function diagnosisOf(d: DrillResult | undefined): Diagnosis[] {
  return d?.incident.diagnosis ?? [];
}

/** Every fix the run's diagnoses gave, per drill: each must be exactly the expected ones. */
function fixes(d: DrillResult | undefined): string[] {
  return diagnosisOf(d).map((g) => `${g.check}: ${g.fix}`);
}

/** Judging the saved evidence log again gives the same diagnosis as the live run. */
function rejudged(out: string, d: DrillResult): Diagnosis[] | undefined {
  return judge(readEvidenceLog(join(out, 'evidence', `${d.id}.jsonl`))).incident.diagnosis;
}

describe('diagnosis of the bundled Node fake servers (TypeScript SDK 1.x)', () => {
  it('names what held each one up, and gives no diagnosis where the fault is not', async () => {
    const { results, out } = await drill([
      join(ROOT, 'scenarios'),
      '--only',
      'well-behaved,ignores-eof,slow-exit,leaks-child,daemonizes,stdout-noise',
      '--point',
      'idle,after-response',
      '--mode',
      'crash',
    ]);
    const d = byKey(results);

    // ignores-eof: read EOF, nothing acted on it, a live handle in the loop; SDK 1.x, #2002.
    const ignores = diagnosisOf(d.get('ignores-eof/idle/crash'));
    expect(fixes(d.get('ignores-eof/idle/crash'))).toEqual([`exit-on-eof: ${SDK1_FIX}`, `no-survivors: ${SDK1_FIX}`]);
    expect(ignores[0].cause).toMatch(
      /^the server read EOF but nothing acted on it \(no exit, nothing on stderr\): its stdin is still open, and its event loop stays alive on a live handle \(.*\); it ended \d+ ms after the loss by SIGTERM from the harness$/,
    );
    expect(ignores[0].observed[0]).toMatch(
      /^at the exit deadline, pid \d+ \(state [RS]\): stdin \(fd 0, \w+\) open but no longer polled or read: the server read its input to the end \(EOF reached it\)$/,
    );
    expect(ignores[0].observed).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^SDK: node; serverInfo ignores-eof \\S+; MCP SDK: @modelcontextprotocol/sdk 1\\.32\\.2 \\(${ROOT}/node_modules/@modelcontextprotocol/sdk/package\\.json\\)$`,
        ),
      ),
    );
    expect(ignores[0].sdk).toBe(
      "TypeScript SDK 1.32.2: at stdin EOF, StdioServerTransport listens to stdin 'data' and 'error' only, never 'end', so the server exits on EOF only when nothing else keeps its event loop alive (typescript-sdk #2002)",
    );

    // slow-exit: exited on its own, late; not the SDK 1.x fix.
    const slow = diagnosisOf(d.get('slow-exit/idle/crash'));
    expect(slow.map((g) => g.check)).toEqual(['exit-on-eof']);
    expect(slow[0].cause).toMatch(
      /^the server exited on its own (\d+) ms after losing its client, past the 2000 ms deadline: it had read EOF by the deadline and was still shutting down$/,
    );
    expect(slow[0].fix).toMatch(/^its shutdown takes \d+ ms: end what it waits for at stdin end \(a drain, a flush, a timer\) within 2000 ms, or/);

    // leaks-child: its child outlived it, started by the server before the loss, in its group.
    const leak = diagnosisOf(d.get('leaks-child/after-response/crash'));
    expect(fixes(d.get('leaks-child/after-response/crash'))).toEqual([`no-survivors: ${NODE_CHILD_FIX}`]);
    expect(leak[0].cause).toBe('1 process the server started outlived it: the server exited on EOF without ending its child');
    expect(leak[0].observed[0]).toMatch(
      /^pid \d+ was started by the server \(pid \d+\), \d+ ms before the client was lost: \S*node \S+helper\.js; in process group \d+; its parent died and it was re-parented$/,
    );

    // daemonizes: a session of its own, found re-parented (a double fork).
    expect(fixes(d.get('daemonizes/after-response/crash'))).toEqual([`no-survivors: ${DAEMON_FIX}`]);
    expect(diagnosisOf(d.get('daemonizes/after-response/crash'))[0].observed[0]).toMatch(/leads a session of its own \(setsid: a daemon\)/);

    // stdout-noise: a banner before the handshake and a handler's print.
    const noise = diagnosisOf(d.get('stdout-noise/after-response/crash'));
    expect(fixes(d.get('stdout-noise/after-response/crash'))).toEqual([`stdout-clean: ${NODE_STDOUT_FIX}`]);
    expect(noise[0].cause).toBe('the server writes text that is not JSON-RPC on stdout: a startup banner and output from a handler');

    // The other way: what passes gets no diagnosis; a fault's diagnosis stays with its own server.
    for (const key of ['well-behaved/idle/crash', 'well-behaved/after-response/crash']) {
      expect(d.get(key)?.verdict, key).toBe('pass');
      expect(diagnosisOf(d.get(key)), key).toEqual([]);
    }
    const everyFix = results.drills.flatMap((r) => diagnosisOf(r).map((g) => g.fix));
    expect(everyFix).not.toContain(THREAD_FIX);
    expect(everyFix).not.toContain(POPEN_FIX);

    for (const r of results.drills) expect(rejudged(out, r), r.key).toEqual(r.incident.diagnosis);
  }, 120_000);
});

/** What each bundled broken server's diagnosis must name: its actual fault (scenarios/crash-drill.baseline.json). */
const BUNDLED_CAUSES: Record<string, RegExp> = {
  'ignores-eof': /^(the server itself outlived its client: )?the server read EOF but nothing acted on it \(no exit, nothing on stderr\)/,
  'ignores-sigterm':
    /^(the server itself outlived its client: )?the server read EOF but nothing acted on it .* by SIGKILL from the (harness|client's shutdown)$/,
  'slow-exit':
    /^the server (exited on its own \d+ ms after losing its client, past the 2000 ms deadline|reacted to EOF \(it wrote on stderr after the loss\) but was still shutting down at the 2000 ms deadline)/,
  'leaks-child': /^1 process the server started outlived it: the server exited on EOF without ending its child$/,
  daemonizes: /^1 process the server started outlived it: 1 in a session of its own \(a daemon/,
  'stdout-noise': /^the server writes text that is not JSON-RPC on stdout: a startup banner and output from a handler$/,
  'keyless-writer': /^the server's writes carry no Idempotency-Key \(2 of 2\), so the recovery retry after the crash made a second effect$/,
  // GitHub's issue create has no idempotency (scenarios/github/): the same cause, and the fix names the natural key.
  'github-issue-keyless': /^the server's writes carry no Idempotency-Key \(2 of 2\), so the recovery retry after the crash made a second effect$/,
  'retries-without-key': /^the server retried a write without its key: \d+ keyed and 1 keyless write for the same call/,
  'polls-after-loss': /^the server kept writing after its client was gone: \d+ new writes \(POST \/actions\), every \d+ to \d+ ms: a timer or loop/,
  'fire-and-forget-job': /^the server started remote job job_\d+ and never cancelled it when its client was lost \(0 cancel requests seen\)$/,
  'static-key-holder': /^the server holds the long-lived API key and used it after the session was revoked/,
  'records-after-answer':
    /^the server recorded its action only after the request had reached the remote: the remote received \S+:write; the server recorded it \d+ ms later$/,
  'never-ends-actions': /^the server started an action and recorded no end before it exited: \S+:write$/,
};

describe('the bundled broken servers (npm run drill)', () => {
  // `npm run drill` itself, run once for both: the gate on the bundled baseline
  // (test/baseline/bundled.test.ts checks the file) and the diagnosis of each known failure.
  it("npm run drill's run passes its gate, and every known failure carries a diagnosis naming that server's actual cause, no passing drill one", async () => {
    const out = tempDir('cd-diagnosis-');
    const run = await runCli(['run', 'scenarios', '--baseline', 'scenarios/crash-drill.baseline.json', '--out', out]);
    expect(run.stderr).not.toMatch(/crash-drill:/);
    // On a miss or an over-report this shows which drill and why.
    expect(run.stdout.slice(run.stdout.indexOf('\nDrills that did not pass'))).not.toContain('Drills that did not pass');
    expect(run.stdout).not.toContain('Cleanup expectation not met');
    expect(lastLine(run.stdout)).toMatch(/^\d+ passed, 0 failed, 24 known, 0 unknown$/);
    expect(run.code).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    expect(markedProcesses(results.runId)).toEqual([]);
    expect(results.summary).toMatchObject({ fail: 0, unknown: 0, error: 0, known: 24 });
    const causes: string[] = [];
    for (const d of results.drills) {
      if (d.verdict === 'pass') {
        expect(diagnosisOf(d), d.key).toEqual([]);
        continue;
      }
      for (const known of d.known ?? []) {
        const g = diagnosisOf(d).find((x) => x.check === known.check);
        causes.push(`${d.key} ${known.check}: ${g ? (BUNDLED_CAUSES[d.scenario].test(g.cause) ? 'named' : g.cause) : 'none'}`);
      }
    }
    expect(causes).toHaveLength(27);
    expect(causes.filter((c) => !c.endsWith(': named'))).toEqual([]);
  }, 180_000);
});
