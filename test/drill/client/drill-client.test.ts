/**
 * Choosing the drill client (harness/drill/client/drill-client.ts): the flag and CRASH_DRILL_CLIENT
 * accept process and inprocess and nothing else, and the in-process client falls back to a
 * client process, saying why, where there can be no holder for its stand-in.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DrillClientProcess } from '../../../harness/drill/client/client-process.js';
import { createDrillClient, defaultClientKind } from '../../../harness/drill/client/drill-client.js';
import { InProcessClient } from '../../../harness/drill/client/in-process-client.js';
import { runCli } from '../../support/cli.js';
import { fakeSubject, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';

const handlers = { onEvent: () => {}, onSubjectStderr: () => {}, onClientStderr: () => {} };

describe('the drill client', () => {
  it('defaults to the in-process client; CRASH_DRILL_CLIENT picks either kind and rejects anything else', () => {
    expect(defaultClientKind({})).toBe('inprocess');
    expect(defaultClientKind({ CRASH_DRILL_CLIENT: '' })).toBe('inprocess');
    expect(defaultClientKind({ CRASH_DRILL_CLIENT: 'inprocess' })).toBe('inprocess');
    expect(defaultClientKind({ CRASH_DRILL_CLIENT: 'process' })).toBe('process');
    expect(() => defaultClientKind({ CRASH_DRILL_CLIENT: 'thread' })).toThrow('CRASH_DRILL_CLIENT: expected process or inprocess, got "thread"');
  });

  it('is in-process when asked and the holder can run, else a client process with the reason', async () => {
    const made = createDrillClient('inprocess', 'cd-20260101T000000-abcdef.0', handlers);
    expect(made).toMatchObject({ fellBack: null });
    expect(made.client).toBeInstanceOf(InProcessClient);
    const saved = process.env.CRASH_DRILL_SUBREAPER;
    process.env.CRASH_DRILL_SUBREAPER = 'off';
    try {
      const off = createDrillClient('inprocess', 'cd-20260101T000000-abcdef.0', handlers);
      expect(off.fellBack).toBe('the in-process client needs the holder: turned off by CRASH_DRILL_SUBREAPER=off');
      expect(off.client).toBeInstanceOf(DrillClientProcess);
      // It started a client process already: end it and wait for its exit, so nothing outlives the test.
      const child = (off.client as DrillClientProcess).child;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
      off.client.dispose();
    } finally {
      if (saved === undefined) delete process.env.CRASH_DRILL_SUBREAPER;
      else process.env.CRASH_DRILL_SUBREAPER = saved;
    }
  });

  it('crash-drill run --client with an unknown kind is a usage error (exit 3) that names the choices', async () => {
    const run = await runCli(['run', '--client', 'thread']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('thread');
    expect(run.stderr).toContain('process, inprocess');
  });

  it('leaves nothing of its SDK client behind once a drill is over: the CLI exits without waiting out the call timeout', async () => {
    // The target call is in flight when the client crashes; its request timer is 120 s. A dead
    // client process takes its timers along; the in-process client must settle them itself.
    const dir = tempDir('crash-drill-in-process-exit-');
    writeFileSync(
      join(dir, 'in-flight.yaml'),
      scenarioYaml({
        id: 'in-flight',
        subject: fakeSubject('ignores-eof'),
        target: { call: 'spawn-helper' },
        points: ['in-flight'],
        modes: ['crash'],
        timeouts: { handshake: 120000, point: 120000 },
        expect: { 'exit-on-eof': { deadline: 300 }, 'no-survivors': { grace: 300 } },
      }),
    );
    const run = await runCli(['run', dir, '--client', 'inprocess', '--out', join(dir, 'out')]);
    expect(run.code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')).drills.map((d: { verdict: string }) => d.verdict)).toEqual(['fail']);
  }, 60_000);
});
