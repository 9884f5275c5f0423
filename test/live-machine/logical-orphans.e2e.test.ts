/**
 * Logical orphans, whose client is alive (harness/live-machine/superseded.ts, detached.ts), made
 * with real clients and servers: session clients (fixtures/session-client.mjs) run the bundled
 * fake servers from a Claude Code `.mcp.json` and hold their pipes.
 * - superseded: client A started entry `notes` (a1), then again with an edited env value (a2),
 *   and abandoned a1 with its pipes open (Claude Code #79740). Two looks read a1's I/O counters
 *   unchanged: superseded.
 * - detached: client E started entry `launched` (launcher-forwards-nothing in front of
 *   ignores-eof) and stopped it as Gemini CLI does, SIGTERM to its direct child only: the
 *   launcher died, the real server runs on, re-parented, its stdout still read by E.
 * Never flagged: client B's older session b1, pinged between the looks (I/O); client D's one
 * session of the same entry (another client); client F's launcher session, launcher alive.
 * `contain` ends each flagged server and leaves its client running (with its other session).
 * As the user running the tests and, when that is root, as uid 65534.
 */
import { chmodSync, chownSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainResult } from '../../harness/live-machine/contain.js';
import type { OrphanEntry, OrphanReport } from '../../harness/live-machine/find-orphans.js';
import type { ProcIdentity } from '../../harness/observe/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { NOBODY, unprivileged } from '../support/unprivileged.js';
import { alive, cleanup, FIXTURES } from './helpers.js';
import { type DrivenClient, type Session, startSessionClient } from './session-driver.js';

const u = unprivileged();
const isRoot = process.getuid?.() === 0;
const nobodySkip = !isRoot ? 'the tests run as an ordinary user already (CI runs them as root and drops to uid 65534)' : !u.available ? u.reason : null;
if (nobodySkip) console.log(`logical orphans as uid 65534: skipped: ${nobodySkip}`);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

afterAll(async () => {
  await cleanup();
  if (u.available) u.cleanup();
}, 30_000);

interface Variant {
  who: string;
  skip: string | null;
  uid: number | null;
  root: () => string;
  cli: (args: string[], env: NodeJS.ProcessEnv) => Promise<CliRun>;
  own: (dir: string) => void;
}

const variants: Variant[] = [
  { who: 'the user running the tests', skip: null, uid: null, root: packageRoot, cli: (args, env) => runCli(args, { env }), own: () => {} },
  {
    who: 'uid 65534',
    skip: nobodySkip,
    uid: NOBODY,
    root: () => (u.available ? u.root : ''),
    cli: (args, env) => (u.available ? u.run(args, { env }) : Promise.reject(new Error('unavailable'))),
    own: (dir) => chownSync(dir, NOBODY, NOBODY),
  },
];

for (const v of variants) {
  describe.skipIf(v.skip !== null)(`superseded and detached servers, as ${v.who}`, () => {
    const c: Record<'A' | 'B' | 'D' | 'E' | 'F', DrivenClient> = {} as never;
    const s: Record<string, Session> = {};
    let config: string;
    let state: string;
    let survivorMatch: string;

    beforeAll(async () => {
      const root = v.root();
      const dir = tempDir('logical-orphans-');
      chmodSync(dir, 0o755);
      copyFileSync(join(FIXTURES, 'session-client.mjs'), join(dir, 'session-client.mjs'));
      const fake = (name: string) => join(root, 'dist/fake-servers', `${name}.js`);
      config = join(dir, '.mcp.json');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            notes: { command: process.execPath, args: [fake('well-behaved')], env: { NOTES_MARK: 'x' } },
            launched: { command: process.execPath, args: [fake('launcher-forwards-nothing')] },
          },
        }),
      );
      chmodSync(config, 0o644);
      // The state folder must be the CLI user's own and private (pending.ts); its parent only lets it in.
      const stateParent = tempDir('logical-orphans-state-');
      chmodSync(stateParent, 0o755);
      const stateDir = join(stateParent, 'state');
      mkdirSync(stateDir, { mode: 0o700 });
      v.own(stateDir);
      state = join(stateDir, 'pending.json');
      survivorMatch = `${escapeRe(fake('ignores-eof'))}$`;

      const script = join(dir, 'session-client.mjs');
      const [A, B, D, E, F] = await Promise.all([0, 1, 2, 3, 4].map(() => startSessionClient(script, v.uid)));
      Object.assign(c, { A, B, D, E, F });
      const notes = (client: DrivenClient, id: string, mark: string) => client.start(id, process.execPath, [fake('well-behaved')], { NOTES_MARK: mark });
      const launched = (client: DrivenClient, id: string) => client.start(id, process.execPath, [fake('launcher-forwards-nothing')]);
      // Each client's sessions in order: the second is started later than the first.
      const [a, b, d, e, f] = await Promise.all([
        (async () => [await notes(A, 'a1', 'before-edit'), await notes(A, 'a2', 'after-edit')])(),
        (async () => [await notes(B, 'b1', 'x'), await notes(B, 'b2', 'x')])(),
        (async () => [await notes(D, 'd1', 'x')])(),
        (async () => [await launched(E, 'e1')])(),
        (async () => [await launched(F, 'f1')])(),
      ]);
      for (const x of [...a, ...b, ...d, ...e, ...f]) s[x.id] = x;
      // Gemini CLI's stop: SIGTERM to the launcher alone; the real server behind it runs on.
      await E.stop('e1', 'SIGTERM');
    }, 120_000);

    const look = async (extra: string[] = []) => {
      const run = await v.cli(
        ['orphans', '--idle-after', '0', '--no-client-configs', '--client-config', config, '--no-defaults', '--match', survivorMatch, ...extra],
        { CRASH_DRILL_ORPHANS_STATE: state },
      );
      expect(run.stderr).toBe('');
      return run;
    };
    const lookJson = async () => {
      const run = await look(['--all', '--json']);
      return { code: run.code, report: JSON.parse(run.stdout) as OrphanReport };
    };
    const entryOf = (report: OrphanReport, p: ProcIdentity) => report.entries.find((e) => e.pid === p.pid && e.startTime === p.startTime);
    /** The classification of each session of ours (the entry of its top process: the launcher while there is one). */
    const classes = (report: OrphanReport) =>
      Object.fromEntries(
        ['a1', 'a2', 'b1', 'b2', 'd1', 'e1', 'f1'].map((id) => [id, entryOf(report, id === 'e1' ? s.e1!.server : s[id]!.child)?.classification]),
      );
    const startedLine = (client: DrivenClient, newer: string) =>
      new RegExp(
        `^client ${client.client.pid} \\(.*session-client\\.mjs\\) started claude-code: notes again \\d+s after it: pid ${s[newer]!.child.pid} \\(start ${s[newer]!.child.startTime}\\) is its newer session$`,
      );

    it("Gemini CLI's stop left the real server running behind its dead launcher; F's launcher lives", () => {
      expect(alive(s.e1!.child)).toBe(false);
      expect(alive(s.e1!.server)).toBe(true);
      expect(alive(c.E.client)).toBe(true);
      expect(alive(s.f1!.child)).toBe(true);
    });

    it('flags the detached server at the first look; superseded needs a second look with the same I/O counters, and I/O in between keeps b1 attached', async () => {
      const first = await lookJson();
      expect(first.code).toBe(1);
      const firstClasses = { a1: 'attached', a2: 'attached', b1: 'attached', b2: 'attached', d1: 'attached', e1: 'detached', f1: 'attached' };
      expect(classes(first.report)).toEqual(firstClasses);
      const a1First = entryOf(first.report, s.a1!.child)!;
      expect(a1First.evidence.slice(-2)).toEqual([
        expect.stringMatching(startedLine(c.A, 'a2')),
        'its I/O counters are kept to compare at the next look: no I/O by then makes it superseded',
      ]);

      await c.B.ping('b1');
      const second = await lookJson();
      expect(second.code).toBe(1);
      // Only a1 changed: no I/O between the looks; b1's ping keeps it attached.
      expect(classes(second.report)).toEqual({ ...firstClasses, a1: 'superseded' });
      const a1 = entryOf(second.report, s.a1!.child)!;
      expect(a1.evidence.slice(0, 2)).toEqual([
        expect.stringMatching(startedLine(c.A, 'a2')),
        expect.stringMatching(
          new RegExp(
            `^no I/O since: at every look since \\S+Z \\(\\d+\\.\\d s\\), each after pid ${s.a2!.child.pid} started, its processes' read and write counters \\(rchar, wchar, syscr, syscw\\) had moved by 8-byte event-loop wake-ups at most$`,
          ),
        ),
      ]);
      const b1 = entryOf(second.report, s.b1!.child)!;
      expect(b1.evidence.slice(-2)).toEqual([
        expect.stringMatching(startedLine(c.B, 'b2')),
        'it read or wrote since the last look (its I/O counters moved by more than event-loop wake-ups); the counters are kept to compare at the next look',
      ]);
      // Another client's session of the same entry, with no I/O either, is no candidate.
      expect(entryOf(second.report, s.d1!.child)!.evidence.some((l) => l.includes('again'))).toBe(false);
    }, 60_000);

    it('names the client of each: the configuration entry, and the live process (its parent, or the holder a detached server was re-parented away from)', async () => {
      await c.B.ping('b1');
      const { report } = await lookJson();
      const client = (e: OrphanEntry) => ({
        configured: e.client.configured,
        pid: e.client.process?.pid,
        ancestor: e.client.process?.ancestor,
        holds: e.client.process?.holds.map((h) => h.replace(/\[\d+\]/g, '[N]')),
        parent: e.client.parents[0]?.pid,
      });
      const both = ['the other end of socket:[N] (socket:[N]) (its stdin)', 'the other end of socket:[N] (socket:[N]) (its stdout)'];
      // Each is its client's child, configured as its entry, the other end of its stdin and stdout held by that client.
      const ownClient = (entry: string, driven: DrivenClient) => ({
        configured: [{ client: 'claude-code', entry }],
        pid: driven.client.pid,
        ancestor: true,
        holds: both,
        parent: driven.client.pid,
      });
      expect(client(entryOf(report, s.a1!.child)!)).toEqual(ownClient('notes', c.A));
      expect(client(entryOf(report, s.f1!.child)!)).toEqual(ownClient('launched', c.F));
      // Node closed the launcher's stdin when it exited; the client still reads the survivor's stdout.
      const survivor = entryOf(report, s.e1!.server)!;
      expect(client(survivor)).toEqual({
        configured: [],
        pid: c.E.client.pid,
        ancestor: false,
        holds: ['the other end of socket:[N] (socket:[N]) (its stdout)'],
        parent: survivor.ppid,
      });
      expect(survivor.ppid).not.toBe(c.E.client.pid);
      expect(survivor.evidence).toEqual([
        expect.stringMatching(
          new RegExp(
            `^client ${c.E.client.pid} \\(.*session-client\\.mjs\\) holds the other end of socket:\\[\\d+\\] \\(socket:\\[\\d+\\]\\) \\(its stdout\\), state [RS], and started before it$`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^re-parented away from that client: its parent chain is ${s.e1!.server.pid} -> .*, which does not pass through ${c.E.client.pid}, so the process the client started is gone$`,
          ),
        ),
        `it is in client ${c.E.client.pid}'s process group ${survivor.pgid}, which a child of the client inherits`,
      ]);
    }, 60_000);

    it('says so in the human output, without --all: only the superseded and the detached server of ours, each with its client', async () => {
      await c.B.ping('b1');
      const run = await look();
      expect(run.code).toBe(1);
      const ours = [s.a1!.child, s.a2!.child, s.b1!.child, s.b2!.child, s.d1!.child, s.e1!.server, s.f1!.child];
      const headers = run.stdout
        .split('\n')
        .filter((l) => ours.some((p) => l.includes(`  pid ${p.pid} (start ${p.startTime}) `)))
        .map((l) => l.split('  pid')[0]);
      expect(headers.sort()).toEqual(['DETACHED', 'SUPERSEDED']);
      expect(run.stdout).toContain(`\n  client: claude-code (entry notes); process ${c.A.client.pid} (start ${c.A.client.startTime}) `);
      expect(run.stdout).toMatch(
        new RegExp(`\\n  client: no configuration entry; process ${c.E.client.pid} \\(start ${c.E.client.startTime}\\) .*: not its ancestor; holds `),
      );
      expect(run.stdout).toMatch(
        /\n\d+ client gone, \d+ client stuck, [1-9]\d* detached, [1-9]\d* superseded, \d+ attached, \d+ unresolved \(proc backend, \d+ ms\)\n$/,
      );
    }, 60_000);

    it('contain ends the superseded server and the detached one, and leaves each client running with its other session', async () => {
      const contain = async (p: ProcIdentity) => {
        const run = await v.cli(['contain', String(p.pid), '--start-time', String(p.startTime), '--wait', '2', '--json'], {});
        expect(run.stderr).toBe('');
        return { code: run.code, result: JSON.parse(run.stdout) as ContainResult };
      };
      const a1 = await contain(s.a1!.child);
      expect([a1.code, a1.result.outcome, a1.result.reason]).toEqual([0, 'contained', 'ended by SIGTERM']);
      expect(a1.result.members.map((m) => [m.pid, m.endedBy])).toEqual([[s.a1!.child.pid, 'SIGTERM']]);
      expect(alive(s.a1!.child)).toBe(false);
      expect(alive(c.A.client)).toBe(true);
      expect(alive(s.a2!.child)).toBe(true);
      await c.A.ping('a2');

      const e1 = await contain(s.e1!.server);
      expect([e1.code, e1.result.outcome, e1.result.reason]).toEqual([0, 'contained', 'ended by SIGTERM']);
      expect(e1.result.members.map((m) => m.pid)).toEqual([s.e1!.server.pid]);
      expect(alive(s.e1!.server)).toBe(false);
      expect(alive(c.E.client)).toBe(true);
    }, 60_000);
  });
}
