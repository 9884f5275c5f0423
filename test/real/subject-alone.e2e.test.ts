/**
 * A published server, as its author would first drill it: `crash-drill run --subject 'npx -y
 * <pkg>@<version>'` in an empty folder, the package installed beforehand and the run without
 * network (`unshare -n`). The run needs no scenario file, names the server after its package, and
 * npx resolves the package from npm's cache (harness/drill/executor/launcher-env.ts) instead of
 * retrying the registry past the handshake's timeout.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, collect, lastLine } from '../support/cli.js';
import { missingPrerequisite } from '../support/prerequisite.js';
import { tempDir } from '../support/temp-dir.js';
import { unshareArgs } from './support/native-servers.js';

/** The reference memory server the project pins as a devDependency (package.json). */
const SPEC = '@modelcontextprotocol/server-memory@2026.8.31';

function cached(): string | null {
  // The registry is reached here, before the drill, as by the author's first online run: npx installs
  // the package and what it depends on, and npm's cache keeps their metadata; the server reads EOF
  // on its empty stdin and exits. In an empty folder, as the drill runs: in this checkout npx finds
  // the package in node_modules (a devDependency) and caches nothing. `npm cache add` cached the
  // package alone: on a machine whose cache never held its dependencies' metadata (a fresh one),
  // npx then retried the registry for @modelcontextprotocol/sdk past the handshake's 30 s.
  const r = spawnSync('npx', ['-y', SPEC], { cwd: tempDir('crash-drill-first-run-'), input: '', encoding: 'utf8', timeout: 120_000 });
  return r.status === 0 ? null : `npx -y ${SPEC} with no input failed (exit ${r.status}): ${(r.stderr ?? '').trim().split('\n').pop()}`;
}

const unshare = unshareArgs();
const why = unshare === null ? 'unshare -n (or -rn) does not work here, and a real server is drilled with loopback only' : cached();
const skip =
  why === null
    ? null
    : missingPrerequisite('test/real/subject-alone.e2e.test.ts', why, {
        test: 'has npm and unshare',
        requiredBy: 'CRASH_DRILL_REQUIRE_REAL_SERVERS=1',
        required: process.env.CRASH_DRILL_REQUIRE_REAL_SERVERS === '1',
      });

describe.skipIf(skip !== null)('--subject alone on a published server, offline', () => {
  it('drills it from an empty folder, names it after its package, and exits 0', async () => {
    const dir = tempDir('crash-drill-subject-alone-');
    const cli = [process.execPath, CLI, 'run', '--subject', `npx -y ${SPEC}`].map((a) => JSON.stringify(a)).join(' ');
    const child = spawn('unshare', [...unshare!, 'sh', '-c', `ip link set lo up && exec ${cli}`], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = await collect(child);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'crash-drill-report', 'results.json'), 'utf8'));
    const drills = results.drills as { key: string; verdict: string; subject: { name: string } }[];
    expect(drills.map((d) => [d.key, d.verdict, d.subject.name])).toEqual(
      ['crash', 'close', 'hang'].map((mode) => [`modelcontextprotocol-server-memory/idle/${mode}`, 'pass', '@modelcontextprotocol/server-memory']),
    );
    expect(lastLine(run.stdout)).toBe('3 passed, 0 failed, 0 unknown');
    // The folder held nothing but what the run wrote.
    expect(readdirSync(dir)).toEqual(['crash-drill-report']);
  }, 120_000);
});
