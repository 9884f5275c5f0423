/**
 * The package's bin keeps its run bit through every build: the build writes dist/bin/ by
 * rename, and only npm's install sets the bit, so `npx crash-drill` in a checkout failed with
 * "Permission denied" after each build until the build set it itself.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_ENTRIES, RUNNABLE_ENTRIES } from '../../harness/build/bundle.js';
import { packageRoot } from '../../harness/util/paths.js';

const root = packageRoot();
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

describe('the bundled bin', () => {
  // The checkout's dist/bin/, as `npm run build` (which npm test runs first) wrote it with
  // bundleHarness: every build replaces the folder whole, so a run bit there is one the build set.
  it("is written 0755 by the build's harness bundle and runs as a program; the other entries stay 0644", () => {
    expect(RUNNABLE_ENTRIES).toEqual(['crash-drill']);
    for (const name of Object.keys(HARNESS_ENTRIES)) {
      const mode = statSync(join(root, `dist/bin/${name}.js`)).mode & 0o777;
      expect(mode.toString(8), name).toBe(name === 'crash-drill' ? '755' : '644');
    }
    // Executed by its path, through its shebang: what npx and a shell do.
    const run = spawnSync(join(root, 'dist/bin/crash-drill.js'), ['--version'], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version}\n`);
    // The other entries are started by node with their path as an argument, never run directly.
    const direct = spawnSync(join(root, 'dist/bin/sentinel.js'), [], { encoding: 'utf8' });
    expect((direct.error as NodeJS.ErrnoException | undefined)?.code).toBe('EACCES');
  });
});
