/**
 * The package's bin keeps its run bit through every build: the build writes dist/bin/ by
 * rename, and only npm's install sets the bit, so `npx crash-drill` in a checkout failed with
 * "Permission denied" after each build until the build set it itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleHarness, HARNESS_ENTRIES, RUNNABLE_ENTRIES } from '../../harness/build/bundle.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

describe('the bundled bin', () => {
  it("is written 0755 by the build's harness bundle and runs as a program; the other entries stay 0644", async () => {
    // A build into a root of its own: tsc's output and the packages are the checkout's.
    const build = tempDir('crash-drill-bin-');
    mkdirSync(join(build, 'dist'));
    symlinkSync(join(root, 'dist/harness'), join(build, 'dist/harness'), 'dir');
    symlinkSync(join(root, 'node_modules'), join(build, 'node_modules'), 'dir');
    symlinkSync(join(root, 'package.json'), join(build, 'package.json'));
    const { rolldown } = await import('rolldown');
    await bundleHarness(rolldown, build);

    expect(RUNNABLE_ENTRIES).toEqual(['crash-drill']);
    for (const name of Object.keys(HARNESS_ENTRIES)) {
      const mode = statSync(join(build, `dist/bin/${name}.js`)).mode & 0o777;
      expect(mode.toString(8), name).toBe(name === 'crash-drill' ? '755' : '644');
    }
    // Executed by its path, through its shebang: what npx and a shell do.
    const run = spawnSync(join(build, 'dist/bin/crash-drill.js'), ['--version'], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version}\n`);
    // The other entries are started by node with their path as an argument, never run directly.
    const direct = spawnSync(join(build, 'dist/bin/sentinel.js'), [], { encoding: 'utf8' });
    expect((direct.error as NodeJS.ErrnoException | undefined)?.code).toBe('EACCES');
  }, 60_000);

  it("the checkout's dist/bin/crash-drill.js (made by `npm run build`) runs by its path", () => {
    const run = spawnSync(join(root, 'dist/bin/crash-drill.js'), ['--version'], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toBe(`${version}\n`);
  });
});
