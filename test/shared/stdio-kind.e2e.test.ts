/**
 * The server's stdio is what its client makes (SpawnFacts `stdio`; harness/shared/fifo-stdio.ts):
 * real pipes (S_ISFIFO) under the Python SDK, Codex, Goose, Zed and Amazon Q CLI, a socketpair under the Node
 * and Bun clients, with either drill client. fake-servers/reports-stdio.ts reports what it got,
 * each drill's evidence names what its profile gives, and the two must agree, drill by drill.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { behaviourOf, PROFILE_REFS } from '../../harness/client-profiles/profiles.js';
import { notRepeatedCopies } from '../../harness/results/constants.js';
import type { RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { runCli } from '../support/cli.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

beforeAll(ensureBuilt);

const PIPES = ['python-sdk', 'codex', 'zed', 'goose', 'amazon-q'];

/** Drill key -> what the server reported, for one run of every profile under `client`. */
async function reported(client: 'inprocess' | 'process'): Promise<{ got: Record<string, string>; named: Record<string, string> }> {
  const dir = tempDir();
  const reports = join(dir, 'stdio');
  const scenarios = join(dir, 'scenarios');
  for (const d of [reports, scenarios]) mkdirSync(d);
  writeFileSync(
    join(scenarios, 'stdio.yaml'),
    scenarioYaml({
      id: 'stdio',
      subject: { command: 'node', args: [join(packageRoot(), 'dist/fake-servers/reports-stdio.js')], env: { FAKE_STDIO_DIR: reports } },
      points: ['idle'],
      modes: ['crash'],
    }),
  );
  const out = join(dir, 'report');
  const run = await runCli(['run', scenarios, '--client', client, '--client-profile', PROFILE_REFS.join(','), '--out', out, '--reporter', 'json']);
  expect(run.stderr).not.toMatch(/error/i);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  const byPid = new Map(readdirSync(reports).map((pid) => [Number(pid), readFileSync(join(reports, pid), 'utf8').trim()]));
  const got: Record<string, string> = {};
  const named: Record<string, string> = {};
  // A profile whose drill is another's (the same spawn facts, stdio among them) is read from the drill that ran.
  for (const d of [...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)]) {
    const events = readFileSync(join(out, 'evidence', d.evidence!.file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; pid?: number; profile?: { spawn: { stdio: string } } });
    const pid = events.find((e) => e.type === 'subject-spawned')?.pid;
    got[d.clientProfile] = (pid !== undefined && byPid.get(pid)) || 'no report';
    named[d.clientProfile] = events.find((e) => e.type === 'client-profile')?.profile?.spawn.stdio ?? 'not named';
  }
  return { got, named };
}

function expected(): { got: Record<string, string>; named: Record<string, string> } {
  const pipe = (ref: string) => PIPES.includes(ref.split('@')[0]);
  return {
    got: Object.fromEntries(PROFILE_REFS.map((r) => [r, pipe(r) ? 'stdin=fifo stdout=fifo' : 'stdin=socket stdout=socket'])),
    named: Object.fromEntries(PROFILE_REFS.map((r) => [r, pipe(r) ? 'pipe' : 'socketpair'])),
  };
}

describe("a server's stdio is its client's", () => {
  it('the profiles say pipes for the Python SDK, Codex, Goose, Zed and Amazon Q CLI, a socketpair for the rest', () => {
    expect([...new Set(PROFILE_REFS.filter((r) => behaviourOf(r).spawn.stdio === 'pipe').map((r) => r.split('@')[0]))]).toEqual(PIPES);
  });

  it.each(['inprocess', 'process'] as const)(
    '--client %s: the server gets what its profile gives, and the evidence names it',
    async (client) => {
      expect(await reported(client)).toEqual(expected());
    },
    240_000,
  );
});
