/**
 * The rmcp fake servers' binaries (fake-servers/rust/bin/, built by fake-servers/rust/build.sh,
 * which .ci/run calls). Without them every test of a file that calls `rustFakesSuite()` is skipped
 * and the reason is printed once, as the Go and Python SDK groups do; with
 * CRASH_DRILL_REQUIRE_RUST=1 (.ci/run sets it after the build) a missing binary fails instead.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { packageRoot } from '../../../harness/util/paths.js';

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
] as const;
export type RustBehaviour = (typeof RUST_BEHAVIOURS)[number];

export const RUST_BIN = join(packageRoot(), 'fake-servers/rust/bin');

export function rustFake(behaviour: RustBehaviour): string {
  return join(RUST_BIN, RMCP_BUILD, behaviour);
}

/** well-behaved built with `cargo auditable` (a .dep-v0 section). */
export const AUDITABLE_FAKE = join(RUST_BIN, 'auditable/well-behaved');

/** The first binary that is missing (the fakes, the ground-truth client, the auditable build), or null when all are built. */
export function missingRustFake(): string | null {
  const all = [...RUST_BEHAVIOURS.map(rustFake), join(RUST_BIN, 'groundtruth/groundtruth'), AUDITABLE_FAKE];
  return all.find((file) => !existsSync(file)) ?? null;
}

const required = process.env.CRASH_DRILL_REQUIRE_RUST === '1';

/** Call at the top of a test file: true when the binaries are there, else false after printing why the file skips. */
export function rustFakesSuite(file: string): boolean {
  const missing = missingRustFake();
  if (missing === null) return true;
  const skip = `no rmcp fake server at ${missing} (run fake-servers/rust/build.sh; it needs cargo and crates.io once)`;
  if (required) {
    it('has the rmcp fake servers built', () => {
      throw new Error(`CRASH_DRILL_REQUIRE_RUST=1 but ${skip}`);
    });
  } else {
    console.warn(`[skip] ${file}: Rust SDK tests skipped: ${skip}`);
  }
  return false;
}
