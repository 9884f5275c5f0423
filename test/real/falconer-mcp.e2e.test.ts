/**
 * A real published server behind a launcher that forwards no signal, drilled under every client
 * profile: @falconer/mcp 0.2.1, whose npm bin (bin/falconer-mcp) runs the native binary of
 * @falconer/mcp-linux-x64 with execFileSync(binary, args, { stdio: 'inherit' }) and installs no
 * signal handler. The binary answers initialize with no network and exits about 200 ms after its
 * stdin closes. The bench measured (docs/client-profiles.md, bench/client-profiles/measured.json,
 * row "@falconer/mcp@0.2.1 in unshare -n") that nothing survives it under any profile, stop or
 * crash: every client closes stdin, and the two that signal first (Gemini CLI, Claude Code) close
 * it through their runtime once the launcher exits. The drill must say the same.
 *
 * It runs as `unshare -n node bin/falconer-mcp` (`-rn`, a user namespace too, where -n alone needs
 * root): loopback only, so it reaches no network. At `idle` the target is never sent.
 *
 * Installed with the other real servers by .ci/real-servers.sh (test/real/support/native-servers.json;
 * it brings @falconer/mcp-linux-x64 as an optional dependency), or name the launcher in
 * CRASH_DRILL_FALCONER_MCP. Without it, or without `unshare -n`, the file skips and says why;
 * CRASH_DRILL_REQUIRE_REAL_SERVERS=1 (.ci/run) makes that a failure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES, profileKeySuffix } from '../../harness/client-profiles/profiles.js';
import type { RunResults } from '../../harness/results/types.js';
import { notRepeatedCopies } from '../../harness/results/constants.js';
import { measured, noSurvivorsVerdict, REAL_ROW } from '../client-profiles/support/measured.js';
import { runCli } from '../support/cli.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { realBinary, realServersSkip, unshareArgs } from './support/native-servers.js';

const FILE = 'test/real/falconer-mcp.e2e.test.ts';
const LAUNCHER = realBinary('falconer-mcp');
const MODES = ['stop', 'crash'] as const;

// The published binary is for linux x64; elsewhere the file says so and skips.
const platform =
  process.platform === 'linux' && process.arch === 'x64' ? null : `the published binary is for linux x64 (this is ${process.platform} ${process.arch})`;
if (platform !== null) console.warn(`[skip] ${FILE}: ${platform}`);
const skip = platform ?? realServersSkip(FILE, ['falconer-mcp']);

describe.runIf(skip === null)('@falconer/mcp 0.2.1 behind its no-forward launcher, under every client profile', () => {
  it('gives the measured no-survivors verdict under each profile, stop and crash', async () => {
    const dir = tempDir();
    const out = join(dir, 'report');
    writeFileSync(
      join(dir, 'falconer.yaml'),
      scenarioYaml({
        id: 'falconer',
        subject: { command: 'unshare', args: [...unshareArgs()!, process.execPath, LAUNCHER], name: 'falconer-mcp' },
        target: { call: 'never-sent' },
        points: ['idle'],
        modes: [...MODES],
        timeouts: { point: 10000, handshake: 30000 },
        expect: { 'no-survivors': { grace: 2000 } },
      }),
    );
    await runCli(['run', dir, '--client-profile', PROFILE_NAMES.join(','), '--out', out, '--reporter', 'json']);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    const row = (mode: (typeof MODES)[number]) => measured()[mode][REAL_ROW];
    const expected = Object.fromEntries(
      MODES.flatMap((mode) => PROFILE_NAMES.map((p) => [`falconer/idle/${mode}${profileKeySuffix(p)}`, noSurvivorsVerdict(row(mode)[p])])),
    );
    expect(results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
    // A profile whose drill is another's (the same spawn and loss facts) is read from the drill that ran.
    const all = [...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)];
    expect(Object.fromEntries(all.map((d) => [d.key, d.checks.find((c) => c.id === 'no-survivors')?.verdict]))).toEqual(expected);
    // The handshake was the real binary's, behind the launcher.
    expect(results.drills.every((d) => d.handshake?.serverName)).toBe(true);
  }, 300_000);
});
