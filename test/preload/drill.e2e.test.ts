/** A server with a hard-coded API host, drilled end to end through the preload. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';

describe('remote.intercept', () => {
  it('routes the hard-coded host to the drill remote: the write is held at sent and journalled, once', async () => {
    const out = join(tempDir('crash-drill-intercept-'), 'out');
    const run = await runCli(['run', 'scenarios/remote/hardcoded-host.yaml', '--point', 'sent', '--out', out]);
    expect(run.stderr).toBe('');
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 0 unknown');
    const [drill] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).drills;
    expect(drill.checks.find((c: { id: string }) => c.id === 'idempotent-effects').summary).toBe(
      '1 effect for 2 keyed writes after the recovery retry, none duplicated',
    );
    const log = readFileSync(join(out, 'evidence', readdirSync(join(out, 'evidence'))[0]), 'utf8');
    const requests = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === 'remote' && e.entry.kind === 'request' && e.entry.write);
    // The server's own write (held at sent) and the recovery retry's, both from the server's process.
    expect(requests.map((e) => [e.entry.route, e.entry.credential, e.entry.idempotencyKey === drill.id + ':deploy'])).toEqual([
      ['POST /actions', 'session', true],
      ['POST /actions', 'session', true],
    ]);
    expect(requests.every((e) => typeof e.entry.process?.pid === 'number')).toBe(true);
  });
});
