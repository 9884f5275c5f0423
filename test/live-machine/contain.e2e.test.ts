/**
 * `crash-drill contain` on real orphans: a server that ignores SIGTERM ends forced and the
 * record says so; a reused pid (a start time that no longer matches) is refused; a probe that
 * is still allowed after revocation stops it; the evidence log verifies and one changed byte
 * is caught. Nothing made here outlives the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { procBackend } from '../../harness/live-machine/proc-backend.js';
import { containOrphan } from '../../harness/live-machine/contain.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { alive, cleanup, killClient, marked, serverPair } from './helpers.js';
import { describeStep } from '../../harness/containment/step.js';

afterAll(cleanup, 30_000);

async function orphan(extra: Record<string, string> = {}) {
  const pair = await serverPair(extra);
  await killClient(pair);
  return pair.server;
}

describe('crash-drill contain', () => {
  it('a server that ignores SIGTERM ends forced, with its helper; the record says so; the evidence verifies and one changed byte is caught', async () => {
    const server = await orphan({ IGNORE_TERM: '1', HELPER: '1' });
    const out = tempDir('contain-');
    const run = await runCli(['contain', String(server.pid), '--wait', '0.3', '--out', out, '--json']);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.outcome).toBe('forced');
    expect(result.reason).toBe('forced containment, cleanup may be incomplete: SIGTERM did not end it, SIGKILL did');
    expect(result.incident.termination).toBe(result.reason);
    expect(result.incident.server).toMatchObject({ pid: server.pid, command: 'node fake-mcp-server.mjs', ppid: 1 });
    expect(result.members.map((m: { proof: string; endedBy: string }) => [m.proof, m.endedBy])).toEqual([
      ['the process itself', 'SIGKILL'],
      [`a descendant of ${server.pid}`, 'SIGTERM'],
    ]);
    expect(alive(server)).toBe(false);
    expect(marked()).toEqual([]);

    const verified = await runCli(['verify', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/ 3 records, head [0-9a-f]{12}\n1 verified, 0 broken\n$/);
    const file = result.evidence.file as string;
    const bytes = readFileSync(file);
    const at = bytes.indexOf('"SIGTERM"', bytes.indexOf('"contain-steps"'));
    bytes[at + 2] = 'X'.charCodeAt(0); // SIGTERM -> SXGTERM in the contain-steps record
    writeFileSync(file, bytes);
    const broken = await runCli(['verify', file]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/BROKEN .*: record 2: changed: its bytes no longer hash to the prev of record 3/);
  });

  it('refuses a process whose start time no longer matches (a reused pid), and signals nothing', async () => {
    const server = await orphan();
    const run = await runCli(['contain', String(server.pid), '--start-time', String(server.startTime + 1)]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      `REFUSED: process ${server.pid} started at ${server.startTime}, not ${server.startTime + 1}: the pid now names another process`,
    );
    expect(alive(server)).toBe(true);

    // Reused between the snapshot and the first signal: the re-identification catches it.
    const result = await containOrphan({
      backend: procBackend,
      pid: server.pid,
      waitMs: 300,
      afterSnapshot: (snapshot) => {
        snapshot.process.startTime += 1;
      },
    });
    expect(result.outcome).toBe('refused');
    expect(result.reason).toBe(
      `process ${server.pid} no longer has the start time of the snapshot (${server.startTime + 1}, now ${server.startTime}): nothing was signalled`,
    );
    expect(result.steps.some((s) => describeStep(s).startsWith('SIGTERM'))).toBe(false);
    expect(alive(server)).toBe(true);
  });

  it('stops when the probe is still allowed after revocation; goes on once it is denied', async () => {
    const server = await orphan();
    const stopped = await runCli(['contain', String(server.pid), '--revoke-cmd', 'true', '--probe-cmd', 'exit 0', '--json']);
    expect(stopped.code).toBe(2);
    const result = JSON.parse(stopped.stdout);
    expect(result.outcome).toBe('stopped');
    expect(result.probes).toEqual([
      { what: expect.stringMatching(/^probe sh -c <command of 6 chars, sha256 [0-9a-f]{16}>$/), result: 'allowed', detail: 'exit code 0' },
    ]);
    expect(alive(server)).toBe(true);

    const denied = await runCli(['contain', String(server.pid), '--revoke-cmd', 'true', '--probe-cmd', 'exit 1', '--json']);
    expect(denied.code).toBe(0);
    const done = JSON.parse(denied.stdout);
    expect(done.outcome).toBe('contained');
    expect(done.probes[0].result).toBe('denied');
    expect(done.incident.revocation.operator).toBe('crash-drill contain');
    expect(alive(server)).toBe(false);
  });

  it('refuses pid 1 and its own ancestors', async () => {
    const run = await runCli(['contain', '1']);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('REFUSED: pid 1 is init: never contained');
    const self = await containOrphan({ backend: procBackend, pid: process.pid, waitMs: 100 });
    expect(self.outcome).toBe('refused');
    expect(self.reason).toBe(`process ${process.pid} is this command or one of its ancestors`);
  });
});
