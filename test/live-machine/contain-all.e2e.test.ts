/**
 * `crash-drill contain --all-orphans`: every "client gone" entry of `orphans`, one by one, with
 * contain's own rules (a server that ignores SIGTERM ends forced); a server whose client is
 * alive is left alone. The machine is shared, so the run is narrowed with --no-defaults and a
 * --match on a token only this file's servers carry: other people's orphans are not ours.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContainResult } from '../../harness/live-machine/contain.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { alive, cleanup, killClient, startPair } from './helpers.js';

const token = `contain-all-${randomUUID()}`;
const only = ['--no-defaults', '--match', `fake-mcp-server\\.mjs ${token}`];

afterAll(cleanup, 30_000);

describe('crash-drill contain --all-orphans', () => {
  it('contains the two orphans one by one (one forced), leaves the attached server alone; each has a log that verifies', async () => {
    const [plain, stubborn, attached] = await Promise.all([
      startPair('node', ['fake-mcp-server.mjs', token]),
      startPair('node', ['fake-mcp-server.mjs', token], { IGNORE_TERM: '1' }),
      startPair('node', ['fake-mcp-server.mjs', token]),
    ]);
    await Promise.all([killClient(plain), killClient(stubborn)]);
    const out = tempDir('contain-all-');

    const run = await runCli(['contain', '--all-orphans', ...only, '--wait', '0.3', '--out', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1); // one needed SIGKILL
    const results = JSON.parse(run.stdout) as ContainResult[];
    const byPid = new Map(results.map((r) => [r.pid, r]));
    expect(results).toHaveLength(2);
    expect([byPid.get(plain.server.pid)?.outcome, byPid.get(stubborn.server.pid)?.outcome]).toEqual(['contained', 'forced']);
    expect(byPid.get(plain.server.pid)!.startTime).toBe(plain.server.startTime);
    expect(byPid.get(stubborn.server.pid)!.reason).toBe('forced containment, cleanup may be incomplete: SIGTERM did not end it, SIGKILL did');
    // One by one: the second snapshot is taken after the first containment is over.
    const [a, b] = results.map((r) => Date.parse(r.steps[0]!.at));
    expect(b! >= Date.parse(results[0]!.steps.at(-1)!.at)).toBe(true);
    expect(a! <= b!).toBe(true);

    expect(alive(plain.server)).toBe(false);
    expect(alive(stubborn.server)).toBe(false);
    expect(alive(attached.server)).toBe(true);
    expect(alive(attached.client)).toBe(true);

    const verified = await runCli(['verify', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/\n?2 verified, 0 broken\n$/);

    // Nothing of ours is left with its client gone: text output, exit 0, and still hands off the attached one.
    const again = await runCli(['contain', '--all-orphans', ...only, '--wait', '0.3']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('0 orphans with client gone; 0 contained, 0 forced, 0 refused or stopped\n');
    expect(alive(attached.server)).toBe(true);
  }, 60_000);
});
