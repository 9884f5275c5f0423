/**
 * Two harnesses of one user whose environments differ in XDG_RUNTIME_DIR (a login shell beside
 * a cron job) register in different folders (harness/registry/registry.ts); each must still see
 * the other's live runs, or its sweep ends them. A lookup reads the user's other registry
 * locations too, only those that exist and are private, and never with CRASH_DRILL_REGISTRY.
 * Real processes: a registered harness stand-in, and a second process asking whether its run is live.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsDir, siblingRunsDirs } from '../../harness/registry/registry.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';

const uid = process.geteuid?.() ?? 0;
const observe = JSON.stringify(join(packageRoot(), 'dist/harness/observe/index.js'));
const run = JSON.stringify(join(packageRoot(), 'dist/harness/registry/index.js'));
function xdgDir(): string {
  return tempDir('registry-xdg-'); // removed after the file (test/support/remove-temp-dirs.ts)
}
function envWith(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.CRASH_DRILL_REGISTRY;
  delete env.XDG_RUNTIME_DIR;
  return { ...env, ...extra };
}
/** What a process with `env` says of `runId`: live or not, and its own runs folder. */
function askLive(runId: string, env: NodeJS.ProcessEnv): { live: boolean; dir: string } {
  const script = `const m = { ...(await import(${observe})), ...(await import(${run})) }; console.log(JSON.stringify({ live: m.isRunLive(${JSON.stringify(runId)}), dir: m.runsDir() }))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe("the user's other registry locations", () => {
  it('are those that exist and are private; none with CRASH_DRILL_REGISTRY', () => {
    const tmpRuns = runsDir(envWith({}));
    expect(tmpRuns).toBe(`/tmp/crash-drill-${uid}/runs`);
    const xdg = xdgDir();
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).toContain(tmpRuns);
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg, CRASH_DRILL_REGISTRY: xdg }, uid)).toEqual([]);
    // Seen from /tmp: the XDG registry counts once it exists and is private, not before, not when open to others.
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).not.toContain(join(xdg, 'crash-drill/runs'));
    const xdgRuns = runsDir({ XDG_RUNTIME_DIR: xdg });
    expect(xdgRuns).toBe(join(xdg, 'crash-drill/runs'));
    // XDG_RUNTIME_DIR open to others: /tmp is the registry, and the XDG one, open to others too, is not read.
    chmodSync(join(xdg, 'crash-drill'), 0o755);
    chmodSync(xdg, 0o755);
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).toEqual([]);
  });

  it('are read only below folders nobody else can write: an XDG_RUNTIME_DIR open to others, or a folder above it, leaves its registry out', () => {
    const parent = join(xdgDir(), 'parent');
    const xdg = join(parent, 'xdg');
    mkdirSync(join(xdg, 'crash-drill', 'runs'), { recursive: true, mode: 0o700 });
    // XDG_RUNTIME_DIR not private (0755), so not the registry; its crash-drill/ is private and read from /tmp's.
    chmodSync(parent, 0o755);
    chmodSync(xdg, 0o755);
    const runs = join(xdg, 'crash-drill/runs');
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).toContain(runs);
    // Open to others (not sticky): anyone could put another folder of ours in place of crash-drill/ after the check.
    chmodSync(xdg, 0o777);
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).not.toContain(runs);
    chmodSync(xdg, 0o755);
    chmodSync(parent, 0o777);
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).not.toContain(runs);
    // Sticky, like /tmp: nobody else can rename what is ours in it.
    chmodSync(parent, 0o1777);
    expect(siblingRunsDirs({ XDG_RUNTIME_DIR: xdg }, uid)).toContain(runs);
  });

  it('a run registered by a harness without XDG_RUNTIME_DIR is live for one with it, and not once it unregisters', async () => {
    const xdg = xdgDir();
    const harness = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = { ...(await import(${observe})), ...(await import(${run})) }; const id = m.newRunId(); const r = m.registerRun(id); console.log(JSON.stringify({ id, dir: m.runsDir() })); process.stdin.resume(); process.stdin.on('end', () => { r.unregister(); console.log('gone'); });`,
      ],
      { env: envWith({}), stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    const line = (n: number) =>
      new Promise<string>((resolve) => {
        const check = () => {
          const lines = out.split('\n');
          if (lines.length > n) resolve(lines[n - 1]);
        };
        harness.stdout!.on('data', (d) => {
          out += d;
          check();
        });
        check();
      });
    try {
      const { id, dir } = JSON.parse(await line(1)) as { id: string; dir: string };
      expect(dir).toBe(`/tmp/crash-drill-${uid}/runs`);
      expect(askLive(id, envWith({ XDG_RUNTIME_DIR: xdg }))).toEqual({ live: true, dir: join(xdg, 'crash-drill/runs') });
      // With a registry of its own (CRASH_DRILL_REGISTRY) nothing else is read.
      expect(askLive(id, envWith({ CRASH_DRILL_REGISTRY: join(xdg, 'own') })).live).toBe(false);
      harness.stdin!.end();
      expect(await line(2)).toBe('gone');
      expect(askLive(id, envWith({ XDG_RUNTIME_DIR: xdg })).live).toBe(false);
    } finally {
      harness.stdin!.end();
    }
  });
});
