/**
 * `crash-drill profiles [--json]`: every client profile, each range of versions read, its steps
 * and each step's source, or `unsourced` with what it rests on; and a bad `--client-profile` is a
 * usage error naming what was expected, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES, PROFILE_REFS } from '../../harness/client-profiles/profiles.js';
import { EXIT } from '../../harness/util/errors.js';
import { runCli } from '../support/cli.js';

type Listed = {
  profiles: Array<{
    name: string;
    behaviours: Array<{
      ref: string;
      versions: { label: string; first: string | null; last: string | null; since: string };
      steps: Record<string, string>;
      sources: Record<string, { cited: Array<{ repo: string; where: string; what: string; version: string }> } | { unsourced: true; rests: string }>;
    }>;
  }>;
};

describe('crash-drill profiles', () => {
  it('--json lists every profile, range, step and source; an unsourced step says so and what it rests on', async () => {
    const run = await runCli(['profiles', '--json']);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as Listed;
    expect(list.profiles.map((p) => p.name)).toEqual([...PROFILE_NAMES]);
    expect(list.profiles.flatMap((p) => p.behaviours.map((b) => b.ref))).toEqual([...PROFILE_REFS]);
    const gemini = list.profiles.find((p) => p.name === 'gemini-cli')!.behaviours;
    expect(gemini.map((b) => [b.ref, b.versions.label, b.versions.first, b.versions.last, b.steps.stop])).toEqual([
      ['gemini-cli', '>=0.52', '0.52', '0.56', 'SIGTERM to the child; the runtime closes stdin when the child exits'],
      [
        'gemini-cli@0.27-0.51',
        '0.27-0.51',
        '0.27',
        '0.51',
        'close stdin; wait <= 2000 ms for the child; SIGTERM to the child if the child lives; wait <= 2000 ms for the child; SIGKILL to the child if the child lives; the runtime closes stdin when the child exits',
      ],
    ]);
    expect(gemini[0].sources.stop).toMatchObject({
      cited: expect.arrayContaining([
        { repo: 'google-gemini/gemini-cli', where: 'package-lock.json', what: 'node_modules/@modelcontextprotocol/sdk 1.23.0', version: '5411f113' },
      ]),
    });
    for (const b of list.profiles.flatMap((p) => p.behaviours))
      for (const step of ['spawn', 'env', 'stop', 'crash', 'abandon']) {
        const source = b.sources[step];
        expect('cited' in source ? source.cited.length > 0 : source.unsourced === true && source.rests.length > 0, `${b.ref} ${step}`).toBe(true);
      }
    const claude = list.profiles.find((p) => p.name === 'claude-code')!.behaviours[0];
    expect(Object.entries(claude.sources).flatMap(([step, s]) => ('unsourced' in s ? [step] : []))).toEqual(['spawn', 'env', 'stop', 'crash']);
    expect(claude.sources.abandon).toMatchObject({ cited: [{ repo: 'anthropics/claude-code', where: '#79740' }] });
  });

  it('as text: each range with its since, each step with its source or "unsourced:"', async () => {
    const run = await runCli(['profiles']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('  gemini-cli@0.27-0.51 = gemini-cli@0.27-0.51 (0.27 to 0.51)\n');
    expect(run.stdout).toMatch(/ {4}stop: SIGINT to the child; .*\n {6}unsourced: SIGINT, SIGTERM, SIGKILL to the child is what #16744/);
    expect(run.stdout).toMatch(/ {4}stop: close stdin; .*\n {6}@modelcontextprotocol\/sdk dist\/esm\/client\/stdio\.js \(StdioClientTransport\.close/);
  });

  it('a profile at a version no range holds, or at no version, is a usage error naming the ranges read', async () => {
    for (const [arg, says] of [
      ['gemini-cli@9.x', 'gemini-cli@9.x: expected gemini-cli@<version> (a version such as 1.2 or 1.2.3) or gemini-cli@<range>'],
      ['gemini-cli@0.10', 'gemini-cli@0.10: no behaviour of gemini-cli was read for version 0.10'],
    ]) {
      const run = await runCli(['run', '--subject', 'node -e 0', '--client-profile', arg]);
      expect(run.code, arg).toBe(EXIT.usage);
      expect(run.stderr).toContain(`${says}; the ranges read: >=0.52 (0.52 to 0.56), 0.27-0.51 (0.27 to 0.51)`);
    }
  });
});
