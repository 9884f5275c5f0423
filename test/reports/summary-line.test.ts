import { describe, expect, it } from 'vitest';
import { summaryLine } from '../../reports/summary-line.js';
import { runResults } from './fixtures.js';

const line = (pass: number, fail: number, unknown: number, error: number) => summaryLine({ ...runResults([]), summary: { pass, fail, unknown, error } });

describe('summaryLine', () => {
  it('is `N passed, N failed, N unknown`, zeros included', () => {
    expect(line(0, 0, 0, 0)).toBe('0 passed, 0 failed, 0 unknown');
    expect(line(12, 2, 1, 0)).toBe('12 passed, 2 failed, 1 unknown');
  });

  it('adds `, N error` only when some drill errored', () => {
    expect(line(12, 2, 1, 1)).toBe('12 passed, 2 failed, 1 unknown, 1 error');
    expect(line(0, 0, 0, 3)).toBe('0 passed, 0 failed, 0 unknown, 3 error');
  });
});
