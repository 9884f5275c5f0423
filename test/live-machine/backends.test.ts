/**
 * The ps + lsof backend (macOS's tools, Debian's lsof here) against the /proc backend on the
 * same real processes, field by field. Where a tool cannot see a field it says so in
 * blindSpots, and the comparison says how it differs: ps has no argv boundaries and counts
 * start times in whole seconds. Skipped, with a message naming lsof, where lsof is missing.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrphans } from '../../harness/live-machine/find-orphans.js';
import { DEFAULT_PATTERNS } from '../../harness/live-machine/patterns.js';
import { procBackend } from '../../harness/live-machine/proc-backend.js';
import { psLsofBackend } from '../../harness/live-machine/ps-lsof-backend.js';
import type { Backend } from '../../harness/live-machine/types.js';
import { cleanup, killClient, marked, serverPair, stopClient, type Pair } from './helpers.js';

const hasLsof = spawnSync('lsof', ['-v']).error === undefined;
if (!hasLsof) console.log('lsof is not installed: the ps + lsof backend tests are skipped (apt-get install lsof to run them)');

describe.skipIf(!hasLsof)('ps + lsof backend against /proc', () => {
  let gone: Pair;
  let stuck: Pair;
  let attached: Pair;

  beforeAll(async () => {
    [gone, stuck, attached] = await Promise.all([serverPair({ API_TOKEN: 'not-a-real-token' }), serverPair({ HELPER: '1' }), serverPair()]);
    await killClient(gone);
    await stopClient(stuck);
  }, 60_000);

  afterAll(cleanup, 30_000);

  const look = (backend: Backend) => findOrphans(backend, { patterns: DEFAULT_PATTERNS, markers: true, stuckAfterMs: 30_000, all: true });

  it('classifies the same processes the same way, with the same stdio ends and reach', () => {
    const mine = new Set(marked().map((p) => p.pid));
    const pick = (backend: Backend) =>
      look(backend)
        .entries.filter((e) => mine.has(e.pid))
        .map((e) => ({
          pid: e.pid,
          classification: e.classification,
          stdio: e.stdio.map((s) => ({ fd: s.fd, kind: s.kind, object: s.object, holders: s.holders?.map((h) => h.pid) ?? null })),
          clients: e.clients.map((c) => [c.pid, c.state]),
          credentials: e.reach.credentials,
          children: e.reach.children,
        }))
        .sort((a, b) => a.pid - b.pid);
    const proc = pick(procBackend);
    expect(proc.map((e) => [e.pid, e.classification])).toEqual(
      [
        [gone.server.pid, 'client-gone'],
        [stuck.server.pid, 'client-stuck'],
        [attached.server.pid, 'attached'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(proc.find((e) => e.pid === gone.server.pid)!.credentials).toEqual(['API_TOKEN']);
    expect(pick(psLsofBackend)).toEqual(proc);
  });

  it('reads the same process table fields; start times within two seconds (ps truncates both the start and the boot time to seconds), commands the same', () => {
    const pids = [gone.server.pid, stuck.server.pid, stuck.client.pid, attached.server.pid];
    for (const pid of pids) {
      const a = procBackend.process(pid)!;
      const b = psLsofBackend.process(pid)!;
      expect({ pid: b.pid, ppid: b.ppid, pgid: b.pgid, sid: b.sid, user: b.user, uid: b.uid, state: b.state, command: b.command }).toEqual({
        pid: a.pid,
        ppid: a.ppid,
        pgid: a.pgid,
        sid: a.sid,
        user: a.user,
        uid: a.uid,
        state: a.state,
        command: a.command,
      });
      expect(Math.abs(Date.parse(a.startedAt) - Date.parse(b.startedAt))).toBeLessThan(2500);
      expect(b.argv).toBeNull();
    }
    expect(psLsofBackend.blindSpots).toContain('ps shows start times in whole seconds');
  });

  it('lists the same descriptors with the same access modes', () => {
    const pid = gone.server.pid;
    const strip = (b: Backend) => b.descriptors(pid)!.map((d) => ({ fd: d.fd, kind: d.kind, access: d.access, object: d.object }));
    expect(strip(psLsofBackend)).toEqual(strip(procBackend));
  });
});
