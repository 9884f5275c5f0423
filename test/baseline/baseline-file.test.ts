/**
 * A bad baseline file is a ConfigError naming the file and the field, like a bad scenario.
 */
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../harness/baseline/load.js';
import { ConfigError } from '../../harness/config/index.js';

const FILE = '/work/x/crash-drill.baseline.json';

function problems(text: string) {
  try {
    parseBaseline(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems.map((p) => [p.file, p.field, p.message]);
  }
  throw new Error('expected a ConfigError');
}

const one = (e: Record<string, unknown>) =>
  JSON.stringify({ version: 1, entries: [{ drill: 'a/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: '', ...e }] });

describe('baseline file validation', () => {
  it('accepts a valid file, a drill entry and a scenario/subject key', () => {
    const text = JSON.stringify({
      version: 1,
      entries: [
        { drill: 'a/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: 'x' },
        { drill: 'a/srv/in-flight/close', check: null, verdict: 'error', reason: '' },
      ],
    });
    expect(parseBaseline(text, FILE).entries).toHaveLength(2);
  });

  it('names the field and what was expected', () => {
    expect(problems(one({ verdict: 'pass' }))).toEqual([[FILE, 'entries[0].verdict', 'expected one of fail, unknown, error, got "pass"']]);
    expect(problems(one({ check: 'exit-on-oef' }))).toEqual([
      [FILE, 'entries[0].check', expect.stringMatching(/^expected one of exit-on-eof, no-survivors, .*, got "exit-on-oef"$/)],
    ]);
    expect(problems(one({ drill: 'a/idle/crush' }))).toEqual([
      [
        FILE,
        'entries[0].drill',
        expect.stringMatching(
          /^expected a drill key <scenario>\[\/<subject>\]\/<point>\/<mode>\[@<client profile>\[@<range>\]\] \(points: idle, .*\), got "a\/idle\/crush"$/,
        ),
      ],
    ]);
    expect(problems(one({ check: null }))).toEqual([
      [FILE, 'entries[0].check', "expected a check id: a failure is always a check's (null is for an error or unknown drill)"],
    ]);
    expect(problems(one({ reason: 3 }))).toEqual([[FILE, 'entries[0].reason', 'expected a string, got the number 3 (quote it to make it a string)']]);
    expect(problems(one({ reasn: '' }))).toEqual([[FILE, 'entries[0].reasn', 'unknown field; did you mean "reason"?']]);
    expect(problems(JSON.stringify({ version: 2, entries: [] }))).toEqual([[FILE, 'version', 'expected one of 1, got the number 2']]);
    expect(problems(JSON.stringify({ version: 1 }))).toEqual([[FILE, 'entries', 'missing; expected a list']]);
  });

  it('refuses a duplicate entry, a file that is not JSON and a list', () => {
    const e = { drill: 'a/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: '' };
    expect(problems(JSON.stringify({ version: 1, entries: [e, e] }))).toEqual([
      [FILE, 'entries[1]', 'duplicate entry: entries[0] already lists a/idle/crash exit-on-eof'],
    ]);
    expect(problems('{ "version": 1, ')).toEqual([[FILE, undefined, expect.stringMatching(/^expected JSON, got a syntax error/)]]);
    expect(problems('[]')).toEqual([[FILE, undefined, 'expected an object { "version": 1, "entries": [...] }, got a list']]);
  });
});
