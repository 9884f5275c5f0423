/**
 * The Go fake servers' binaries (fake-servers/go/bin/, built by fake-servers/go/build.sh, which
 * .ci/run calls). Without them every test of a file that calls `goFakesSuite()` is skipped and
 * the reason is printed once, as the Python SDK group does; with CRASH_DRILL_REQUIRE_GO=1 (.ci/run
 * sets it after the build) a missing binary fails instead.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { packageRoot } from '../../../harness/util/paths.js';

/** Each build of fake-servers/go/build.sh: its folder under bin/ is the SDK and its version. */
export const GO_BUILDS = ['go-sdk-v1.8.0', 'go-sdk-v1.6.1', 'mcp-go-v1.2.1'] as const;
export type GoBuild = (typeof GO_BUILDS)[number];
export const GO_BEHAVIOURS = [
  'well-behaved',
  'slow-tool',
  'ignores-cancel',
  'awaits-sampling',
  'leaks-child',
  'goroutine-keeps-alive',
  'writes-after-eof',
] as const;
export type GoBehaviour = (typeof GO_BEHAVIOURS)[number];

export const GO_BIN = join(packageRoot(), 'fake-servers/go/bin');

export function goFake(build: GoBuild, behaviour: GoBehaviour): string {
  return join(GO_BIN, build, behaviour);
}

/** The first binary that is missing (the fakes, the ground-truth client, the Mach-O build), or null when all are built. */
export function missingGoFake(): string | null {
  const all = [
    ...GO_BUILDS.flatMap((build) => GO_BEHAVIOURS.map((b) => goFake(build, b))),
    join(GO_BIN, 'groundtruth/groundtruth'),
    join(GO_BIN, 'darwin-arm64/well-behaved'),
  ];
  return all.find((file) => !existsSync(file)) ?? null;
}

const required = process.env.CRASH_DRILL_REQUIRE_GO === '1';

/** Call at the top of a test file: true when the binaries are there, else false after printing why the file skips. */
export function goFakesSuite(file: string): boolean {
  const missing = missingGoFake();
  if (missing === null) return true;
  const skip = `no Go fake server at ${missing} (run fake-servers/go/build.sh; it needs Go and the module proxy once)`;
  if (required) {
    it('has the Go fake servers built', () => {
      throw new Error(`CRASH_DRILL_REQUIRE_GO=1 but ${skip}`);
    });
  } else {
    console.warn(`[skip] ${file}: Go SDK tests skipped: ${skip}`);
  }
  return false;
}
