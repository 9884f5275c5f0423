import { describe, expect, it } from 'vitest';
import { editDistance, suggestKey } from '../../harness/config/suggest.js';
import { formatFieldPath } from '../../harness/config/field-path.js';

describe('suggestKey', () => {
  const subject = ['command', 'args', 'env', 'cwd', 'name'];
  it('finds typos, other casings, abbreviations and longer spellings', () => {
    expect(suggestKey('comand', subject)).toBe('command');
    expect(suggestKey('cmd', subject)).toBe('command');
    expect(suggestKey('environment', subject)).toBe('env');
    expect(suggestKey('ARGS', subject)).toBe('args');
    expect(suggestKey('close_wait', ['handshake', 'point', 'in-flight-delay', 'close-wait'])).toBe('close-wait');
  });
  it('suggests nothing for an unrelated key', () => {
    expect(suggestKey('zzzzzz', subject)).toBeUndefined();
    expect(suggestKey('timeout', subject)).toBeUndefined();
  });
  it('computes edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('formatFieldPath', () => {
  it('writes paths the way a user would', () => {
    expect(formatFieldPath(['setup', 0, 'call'])).toBe('setup[0].call');
    expect(formatFieldPath(['expect', 'exit-on-eof', 'deadline'])).toBe('expect.exit-on-eof.deadline');
    expect(formatFieldPath(['subject', 'env', 'API_URL'])).toBe('subject.env.API_URL');
    expect(formatFieldPath(['subject', 'env', 'a b'])).toBe('subject.env["a b"]');
    expect(formatFieldPath([])).toBe('');
  });
});
