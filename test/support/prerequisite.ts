/**
 * A test file whose prerequisite is missing (a built fake, an SDK's interpreter, a published
 * server): where CI requires it (.ci/run sets the variable; npm test builds first, test/prepare.sh), one
 * failing test says what is missing; elsewhere the file skips, and the reason is printed once
 * (the skipped-tests reporter lists it at the end of the run).
 */
import { it } from 'vitest';

export interface Prerequisite {
  /** What the failing test is called: "has the Go fake servers built". */
  test: string;
  /** The variable(s) that made it required, as the failure names them: "CRASH_DRILL_REQUIRE_PYTHON_SDK=1". */
  requiredBy: string;
  required: boolean;
}

/** Says why `file` cannot run, as a failing test or a printed skip; returns `why`. */
export function missingPrerequisite(file: string, why: string, p: Prerequisite): string {
  if (p.required) {
    it(p.test, () => {
      throw new Error(`${p.requiredBy} but ${why}`);
    });
  } else {
    console.warn(`[skip] ${file}: ${why}`);
  }
  return why;
}
