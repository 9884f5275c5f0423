/**
 * The rmcp fake servers' binaries (fake-servers/rust/bin/, built by fake-servers/rust/build.sh,
 * which fake-servers/build-all.sh and so .ci/run call). Missing, a file that calls
 * `rustFakesSuite()` skips with the reason, unless the build is required (test/support/built-binaries.ts).
 */
import { join } from 'node:path';
import { packageRoot } from '../../../harness/util/paths.js';
import { builtGroup } from '../../support/built-binaries.js';

/** The rmcp build of fake-servers/rust/build.sh: its folder under bin/ is the SDK and its version. */
export const RMCP_BUILD = 'rmcp-3.11.0';
export const RMCP_VERSION = '3.11.0';
export const RUST_BEHAVIOURS = [
  'well-behaved',
  'slow-tool',
  'ignores-cancel',
  'awaits-sampling',
  'leaks-child',
  'task-keeps-alive',
  'writes-after-eof',
  'prints-after-eof',
  'waits-for-signal',
] as const;
export type RustBehaviour = (typeof RUST_BEHAVIOURS)[number];

export const RUST_BIN = join(packageRoot(), 'fake-servers/rust/bin');

export function rustFake(behaviour: RustBehaviour): string {
  return join(RUST_BIN, RMCP_BUILD, behaviour);
}

/** well-behaved built with `cargo auditable` (a .dep-v0 section). */
export const AUDITABLE_FAKE = join(RUST_BIN, 'auditable/well-behaved');

/** Call at the top of a test file: true when the binaries are there (the fakes, the ground-truth client, the auditable build), else false after printing why the file skips. */
export const rustFakesSuite = builtGroup({
  what: 'rmcp fake server',
  files: [...RUST_BEHAVIOURS.map(rustFake), join(RUST_BIN, 'groundtruth/groundtruth'), AUDITABLE_FAKE],
  buildWith: 'fake-servers/build-all.sh or fake-servers/rust/build.sh; it needs cargo and crates.io once',
  requireEnv: 'CRASH_DRILL_REQUIRE_RUST',
});
