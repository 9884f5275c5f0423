/**
 * The run's container sweep asks the engine only where a dead run used one (harness/containers/
 * stale.ts, the per-run engine mark beside the run registry). A `docker` on PATH that records
 * how it was called stands in for the engine CLI: by default it answers like a docker with no
 * daemon; with FAKE_DOCKER_UP=1 like an engine with no container. A mark counts only as a
 * regular file of the user's (harness/registry/own-files.ts).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearEngineMark, engineMarkFile, markEngineUsed, sweepStaleContainerRows } from '../../harness/containers/stale.js';
import { newRunId } from '../../harness/observe/index.js';
import { registerRun, runsDir } from '../../harness/registry/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const DOCKER = `#!/bin/sh
if [ "$1" = run ]; then
  # A drill's server: say whether the drill's run (its marker, less the drill's index) was marked
  # before the container's start, then be the server.
  if [ -e "$FAKE_DOCKER_RUNS/\${CRASH_DRILL_RUN%.*}.engine" ]; then echo 'run marked' >> "$FAKE_DOCKER_CALLS"; else echo 'run unmarked' >> "$FAKE_DOCKER_CALLS"; fi
  exec "$FAKE_DOCKER_NODE" "$FAKE_DOCKER_SERVER"
fi
echo "$1" >> "$FAKE_DOCKER_CALLS"
if [ "$FAKE_DOCKER_UP" = 1 ]; then
  [ "$1" = version ] && echo 27.0.0
  exit 0
fi
echo 'Cannot connect to the Docker daemon' >&2
exit 1
`;

/** The recording docker in a folder of its own (<dir>/bin/docker), and the file of its calls. */
function fakeDocker(): { bin: string; calls: string } {
  const dir = tempDir();
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'docker'), DOCKER);
  chmodSync(join(bin, 'docker'), 0o755);
  return { bin, calls: join(dir, 'calls.txt') };
}

const callsIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);

describe('the container sweep of a run', () => {
  const saved = {
    PATH: process.env.PATH,
    CRASH_DRILL_REGISTRY: process.env.CRASH_DRILL_REGISTRY,
    FAKE_DOCKER_CALLS: process.env.FAKE_DOCKER_CALLS,
    FAKE_DOCKER_UP: process.env.FAKE_DOCKER_UP,
  };
  let calls = '';
  let bin = '';
  const called = (): string[] => callsIn(calls);

  beforeEach(() => {
    ({ bin, calls } = fakeDocker());
    // Its own registry folder (the marks live in it; these tests sweep no process) and the recording docker first on PATH.
    process.env.CRASH_DRILL_REGISTRY = join(dirname(bin), 'registry');
    process.env.PATH = `${bin}:${saved.PATH}`;
    process.env.FAKE_DOCKER_CALLS = calls;
    delete process.env.FAKE_DOCKER_UP;
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('does not start the engine CLI where no run used an engine', async () => {
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(existsSync(calls)).toBe(false);
  });

  it('does not start it for the mark of a live run, which contains its own containers', async () => {
    const runId = newRunId();
    const registration = registerRun(runId);
    try {
      markEngineUsed(runId);
      expect(existsSync(engineMarkFile(runId))).toBe(true);
      expect(engineMarkFile(runId).startsWith(process.env.CRASH_DRILL_REGISTRY!)).toBe(true);
      expect(await sweepStaleContainerRows()).toEqual([]);
      expect(existsSync(calls)).toBe(false);
    } finally {
      clearEngineMark(runId);
      registration.unregister();
    }
    expect(existsSync(engineMarkFile(runId))).toBe(false);
  });

  it('asks the engine for a dead run that used one; an unreachable engine keeps the mark for the next run', async () => {
    const runId = newRunId(); // marked, never registered: its harness is gone
    markEngineUsed(runId);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(called()).toEqual(['version']);
    expect(existsSync(engineMarkFile(runId))).toBe(true);
  });

  it('takes the dead run’s mark away once the engine answered, so the next run does not ask again', async () => {
    process.env.FAKE_DOCKER_UP = '1';
    const runId = newRunId();
    markEngineUsed(runId);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(called()).toEqual(['version', 'ps']);
    expect(existsSync(engineMarkFile(runId))).toBe(false);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(called()).toEqual(['version', 'ps']);
  });

  it('a mark is made 0600 and only at a free name: a symlink there is neither written through nor counted', async () => {
    const runId = newRunId(); // never registered: a dead run
    const target = join(dirname(bin), 'target');
    writeFileSync(target, 'before\n');
    symlinkSync(target, engineMarkFile(runId));
    markEngineUsed(runId);
    expect(readFileSync(target, 'utf8')).toBe('before\n');
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(existsSync(calls)).toBe(false);
    // The same names as regular files of ours count.
    rmSync(engineMarkFile(runId));
    markEngineUsed(runId);
    const st = lstatSync(engineMarkFile(runId));
    expect([st.isFile(), st.mode & 0o777]).toEqual([true, 0o600]);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(called()).toEqual(['version']);
    clearEngineMark(runId);
  });

  it('asks the engine with `always` (a dead run’s sentinel), mark or not', async () => {
    const runId = newRunId();
    expect(await sweepStaleContainerRows((id) => id === runId, { always: true })).toEqual([]);
    expect(called()).toEqual(['version']);
  });
});

/**
 * A whole drill, in the machine's one run registry: a harness with a registry of its own
 * (CRASH_DRILL_REGISTRY) would take every other harness's drills for a dead run's and sweep them
 * (harness/observe/README.md).
 */
describe('a run whose drill uses an engine', () => {
  let calls = '';
  let docker = '';
  const called = (): string[] => callsIn(calls);

  beforeEach(() => {
    const made = fakeDocker();
    calls = made.calls;
    docker = join(made.bin, 'docker');
  });

  it('a drill whose server is `docker run` marks its run before the container starts, and the run takes the mark away as it ends', async () => {
    const dir = tempDir();
    const yaml = scenarioYaml({
      id: 'in-a-container',
      subject: {
        command: docker,
        args: ['run', '--rm', '-i', 'fake-image'],
        env: {
          FAKE_DOCKER_NODE: process.execPath,
          FAKE_DOCKER_SERVER: join(packageRoot(), 'dist/fake-servers/well-behaved.js'),
          // A server's environment is the SDK's default set and its own (the in-process client's INHERITED_ENV).
          FAKE_DOCKER_CALLS: calls,
          FAKE_DOCKER_RUNS: runsDir(),
        },
      },
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle'],
      modes: ['crash'],
    });
    const { results } = await runPlan(planRun([scenarioFrom(yaml, dir)]), { concurrency: 1, reporters: [], client: 'inprocess' });
    expect(results.drills).toHaveLength(1);
    expect(called()).toContain('run marked');
    expect(called()).not.toContain('run unmarked');
    expect(existsSync(engineMarkFile(results.runId))).toBe(false);
  });
});
