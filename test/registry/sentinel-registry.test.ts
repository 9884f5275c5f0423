/**
 * The run's sentinel checks the run registry like every user of it (harness/registry/registry.ts):
 * once its harness is dead (`--now`), a registry that is not private makes it exit 3 without
 * reading or writing there; a private one lets it sweep its run and exit 0. Real processes: the
 * built sentinel, with CRASH_DRILL_REGISTRY pointing at a real folder.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distFile } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The sentinel of a run whose harness has died, with `registry`: its exit code and stderr. */
function deadHarnessSentinel(registry: string): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CRASH_DRILL_REGISTRY: registry };
  delete env.CRASH_DRILL_RUN;
  const child = spawn(process.execPath, [distFile('bin/sentinel.js'), 'cd-20261201T000000-5e7e11', '--now'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe("the run's sentinel and the run registry", () => {
  it('exits 3 without touching a registry open to others, and sweeps (exit 0) with a private one', async () => {
    const base = tempDir('sentinel-registry-');
    made.push(base);
    const registry = join(base, 'registry');
    mkdirSync(registry, { mode: 0o700 });
    chmodSync(registry, 0o777);
    expect(await deadHarnessSentinel(registry)).toEqual({ code: 3, stderr: '' });
    expect(readdirSync(registry)).toEqual([]);
    chmodSync(registry, 0o700);
    expect(await deadHarnessSentinel(registry)).toEqual({ code: 0, stderr: '' });
    expect(readdirSync(registry)).toEqual(['runs']);
  });
});
