/**
 * The Go fake servers' binaries (fake-servers/go/bin/, built by fake-servers/go/build.sh, which
 * fake-servers/build-all.sh and so npm test (test/prepare.sh) call): one per SDK build, its first argument the
 * behaviour. Missing, a file that calls `goFakesSuite()` skips with the reason, unless the build
 * is required (test/support/built-binaries.ts).
 */
import { join } from 'node:path';
import { packageRoot } from '../../../harness/util/paths.js';
import { builtGroup } from '../../support/built-binaries.js';

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
  'waits-for-signal',
] as const;
export type GoBehaviour = (typeof GO_BEHAVIOURS)[number];

export const GO_BIN = join(packageRoot(), 'fake-servers/go/bin');

/** A build's one binary (fake-servers/go/bin/<build>/fakes), whose first argument names the behaviour. */
export function goFakesBinary(build: GoBuild): string {
  return join(GO_BIN, build, 'fakes');
}

/** A behaviour as a scenario's subject: the build's binary and the behaviour's name. */
export function goFake(build: GoBuild, behaviour: GoBehaviour): { command: string; args: string[] } {
  return { command: goFakesBinary(build), args: [behaviour] };
}

/** Call at the top of a test file: true when the binaries are there (the fakes, the ground-truth client, the Mach-O build), else false after printing why the file skips. */
export const goFakesSuite = builtGroup({
  what: 'Go fake server',
  files: [...GO_BUILDS.map(goFakesBinary), join(GO_BIN, 'groundtruth/groundtruth'), join(GO_BIN, 'darwin-arm64/fakes')],
  buildWith: 'fake-servers/build-all.sh or fake-servers/go/build.sh; it needs Go and the module proxy once',
  requireEnv: 'CRASH_DRILL_REQUIRE_GO',
});
