/** The truth-table key and row every matrix compares with, and the row of a drill whose point was never reached. */
import { describe, expect, it } from 'vitest';
import { verdictTable } from './truth-table.js';

const checks = [
  { id: 'exit-on-eof', verdict: 'pass' },
  { id: 'no-survivors', verdict: 'unknown' },
] as const;
const drills = [
  { scenario: 'a', point: 'sent', mode: 'crash', verdict: 'pass', checks },
  { scenario: 'b', point: 'sent', mode: 'crash', verdict: 'unknown', checks },
] as never[];

describe('verdictTable', () => {
  it('keys scenario/point/mode to the verdict, the extra columns and every check', () => {
    expect(verdictTable(drills, () => ({ era: 'x' }))).toEqual({
      'a/sent/crash': { verdict: 'pass', era: 'x', 'exit-on-eof': 'pass', 'no-survivors': 'unknown' },
      'b/sent/crash': { verdict: 'unknown', era: 'x', 'exit-on-eof': 'pass', 'no-survivors': 'unknown' },
    });
  });

  it("with unknownWithoutChecks, leaves out an unknown drill's checks and no other's", () => {
    expect(verdictTable(drills, undefined, { unknownWithoutChecks: true })).toEqual({
      'a/sent/crash': { verdict: 'pass', 'exit-on-eof': 'pass', 'no-survivors': 'unknown' },
      'b/sent/crash': { verdict: 'unknown' },
    });
  });
});
