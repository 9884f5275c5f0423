/**
 * The run's container sweep asks the engine only where this user's drills have used one
 * (harness/containers/stale.ts, the engine-used mark). A `docker` on PATH that records how it
 * was called stands in for the engine CLI: it answers like a docker with no daemon.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engineMarkFile, markEngineUsed, sweepStaleContainerRows } from '../../harness/containers/stale.js';
import { tempDir } from '../support/scenarios.js';

describe('the container sweep of a run', () => {
  const saved = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR };
  let calls = '';

  beforeEach(() => {
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    calls = join(dir, 'calls.txt');
    writeFileSync(join(bin, 'docker'), `#!/bin/sh\necho "$*" >> '${calls}'\necho 'Cannot connect to the Docker daemon' >&2\nexit 1\n`);
    chmodSync(join(bin, 'docker'), 0o755);
    // Its own registry folder (the mark lives beside it) and the recording docker first on PATH.
    process.env.TMPDIR = join(dir, 'tmp');
    mkdirSync(process.env.TMPDIR);
    process.env.PATH = `${bin}:${saved.PATH}`;
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.TMPDIR === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved.TMPDIR;
  });

  it('does not start the engine CLI where no drill of this user used an engine', async () => {
    expect(existsSync(engineMarkFile())).toBe(false);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(existsSync(calls)).toBe(false);
  });

  it('asks the engine once a drill has used one (the mark), and an unreachable engine has nothing to sweep', async () => {
    markEngineUsed();
    expect(engineMarkFile().startsWith(process.env.TMPDIR!)).toBe(true);
    expect(existsSync(engineMarkFile())).toBe(true);
    expect(await sweepStaleContainerRows()).toEqual([]);
    expect(readFileSync(calls, 'utf8')).toMatch(/^version/);
  });
});
