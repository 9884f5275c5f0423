/**
 * The "client stuck" rule by --stuck-after (harness/live-machine/pending.ts, find-orphans.ts): a live
 * client that stopped reading leaves the server's output queued on its end of the socketpair
 * (`ss` Recv-Q). The first look records it and still says attached; a look once --stuck-after
 * has passed says stuck. A client that reads the same output stays attached. The looks share a
 * state file of this test's own (CRASH_DRILL_ORPHANS_STATE), so other runs cannot disturb it. The
 * reading client says it is up only once it has read all the output (fixtures/client.mjs).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrphanEntry, OrphanReport } from '../../harness/live-machine/find-orphans.js';
import { runCli } from '../support/cli.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';
import { cleanup, serverPair, type Pair } from './helpers.js';

const hasSs = spawnSync('ss', ['-V'], { stdio: 'ignore' }).status === 0;
if (!hasSs) console.log('ss (iproute2) is not installed: the unread-output rule cannot be seen, the --stuck-after tests are skipped');

// More than the client's read-ahead and the socket buffer can absorb: some stays queued.
const OUTPUT = String(1 << 20);
const STUCK_AFTER = '1';
const state = join(tempDir('orphans-stuck-'), 'pending.json');

let paused: Pair;
let reading: Pair;
let handoff: Pair;
let reader: number;

/** The `stdout-reader` the HANDOFF client started: a child of the client (fixtures/client.mjs). */
function readerOf(client: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== client) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes('stdout-reader')) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

beforeAll(async () => {
  if (!hasSs) return;
  [paused, reading, handoff] = await Promise.all([serverPair({ PAUSE: '1', OUTPUT }), serverPair({ OUTPUT }), serverPair({ HANDOFF: '1', OUTPUT })]);
  reader = await until('the stdout reader of the HANDOFF client', () => readerOf(handoff.client.pid));
}, 60_000);

afterAll(cleanup, 30_000);

async function look(): Promise<{ code: number | null; paused: OrphanEntry; reading: OrphanEntry; handoff: OrphanEntry }> {
  const run = await runCli(['orphans', '--all', '--json', '--stuck-after', STUCK_AFTER, '--no-defaults', '--match', 'fake-mcp-server\\.mjs'], {
    env: { CRASH_DRILL_ORPHANS_STATE: state },
  });
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout) as OrphanReport;
  const find = (p: Pair) => report.entries.find((e) => e.pid === p.server.pid && e.startTime === p.server.startTime)!;
  return { code: run.code, paused: find(paused), reading: find(reading), handoff: find(handoff) };
}

const unreadLine = (e: OrphanEntry) => e.evidence.find((l) => / bytes of its output are unread by client /.test(l));

describe.skipIf(!hasSs)('orphans --stuck-after: a live client that stopped reading', () => {
  it('is attached at the first look (its unread output noted), stuck once --stuck-after has passed; a reading client stays attached', async () => {
    const first = await look();
    expect(first.paused.classification).toBe('attached');
    expect(unreadLine(first.paused)).toMatch(
      new RegExp(`^\\d+ bytes of its output are unread by client ${paused.client.pid}, at every look since \\S+ \\(\\d+\\.\\d s\\)$`),
    );
    expect(first.reading.classification).toBe('attached');
    expect(unreadLine(first.reading)).toBeUndefined();

    // Wait on the condition (the recorded first look is --stuck-after old), then look again.
    const since = Date.parse(/since (\S+) /.exec(unreadLine(first.paused)!)![1]!);
    let later = await look();
    while (later.paused.classification === 'attached' && Date.now() - since < 10_000) later = await look();
    expect(later.paused.classification).toBe('client-stuck');
    expect(later.code).toBe(1);
    const line = later.paused.evidence[0]!;
    expect(line).toMatch(
      new RegExp(`unread by client ${paused.client.pid}, at every look since ${new Date(since).toISOString().replace(/\./g, '\\.')} \\((\\d+\\.\\d) s\\)$`),
    );
    expect(Number(/\((\d+\.\d) s\)$/.exec(line)![1])).toBeGreaterThanOrEqual(Number(STUCK_AFTER));
    expect(later.paused.clients.map((c) => [c.pid, c.state])).toEqual([[paused.client.pid, expect.stringMatching(/^[RS]$/)]]);

    expect(later.reading.classification).toBe('attached');
    expect(unreadLine(later.reading)).toBeUndefined();
  }, 60_000);

  it("names the process that holds the server's stdout as the one not reading, when another holds its stdin", async () => {
    let entry = (await look()).handoff;
    expect(entry.clients.map((c) => c.pid).sort()).toEqual([handoff.client.pid, reader].sort());
    expect(unreadLine(entry)).toMatch(new RegExp(`^\\d+ bytes of its output are unread by client ${reader}, at every look since `));
    const since = Date.parse(/since (\S+) /.exec(unreadLine(entry)!)![1]!);
    while (entry.classification === 'attached' && Date.now() - since < 10_000) entry = (await look()).handoff;
    expect(entry.classification).toBe('client-stuck');
    expect(entry.evidence[0]).toMatch(new RegExp(`unread by client ${reader}, at every look since `));
  }, 60_000);
});
