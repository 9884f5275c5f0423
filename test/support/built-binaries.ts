/**
 * Tests of programs a script builds (the Go, Java, Rust and HTTP language fakes: fake-servers/
 * build-all.sh, which .ci/run calls): when a file is missing, every test of the file that asks is
 * skipped and the reason printed once (the skipped-tests reporter lists it at the end), naming the
 * file, the script that builds it and what the script needs; when the build is required
 * (CRASH_DRILL_REQUIRE_FAKES=1, set by .ci/run; npm test builds first with test/prepare.sh, or the group's own variable) a
 * missing file is a failed test instead.
 */
import { existsSync } from 'node:fs';
import { missingPrerequisite } from './prerequisite.js';

export interface BuiltBinaries {
  /** What they are, for the messages: "Go fake server", "Java fake server", "rust fake". */
  what: string;
  /** The files the tests need. */
  files: readonly string[];
  /** The script that builds them, and what it needs, e.g. "fake-servers/go/build.sh; it needs Go and the module proxy once". */
  buildWith: string;
  /** The group's own variable that makes them required, beside CRASH_DRILL_REQUIRE_FAKES. */
  requireEnv: string;
}

export function missingBuilt(spec: BuiltBinaries): string | null {
  return spec.files.find((file) => !existsSync(file)) ?? null;
}

export function builtRequired(spec: BuiltBinaries): boolean {
  return process.env.CRASH_DRILL_REQUIRE_FAKES === '1' || process.env[spec.requireEnv] === '1';
}

/** Call at the top of a test file: true when every file is built, else false after saying why (or failing, when required). */
export function builtSuite(testFile: string, spec: BuiltBinaries): boolean {
  const missing = missingBuilt(spec);
  if (missing === null) return true;
  missingPrerequisite(testFile, `no ${spec.what} at ${missing} (run ${spec.buildWith})`, {
    test: `has the ${spec.what}s built`,
    requiredBy: `the build is required (CRASH_DRILL_REQUIRE_FAKES=1 or ${spec.requireEnv}=1)`,
    required: builtRequired(spec),
  });
  return false;
}

/** A group's guard, from its one spec: call `suite(file)` at the top of a test file (as builtSuite). */
export function builtGroup(spec: BuiltBinaries): (testFile: string) => boolean {
  return (testFile) => builtSuite(testFile, spec);
}
