/**
 * A baseline entry may name a conformance id instead of a check id (crash-drill requirements):
 * it stands for every check that tests that row, and a duplicate of one of them is refused.
 */
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../harness/baseline/load.js';
import { CONFORMANCE_IDS } from '../../harness/baseline/schema.js';
import { ConfigError } from '../../harness/config/index.js';

const FILE = '/work/x/crash-drill.baseline.json';
const ROW = 'sep-2575-stdio-server-stops-on-cancel';
const file = (entries: object[]) => JSON.stringify({ version: 1, entries });
const entry = (check: string) => ({ drill: 'slow/in-flight/cancel', check, verdict: 'fail', reason: 'answers after a cancel' });

describe('a baseline entry naming a conformance id', () => {
  it('the cancel checks test one conformance row', () => {
    expect(CONFORMANCE_IDS).toEqual([ROW]);
  });

  it('stands for each check that tests it', () => {
    expect(parseBaseline(file([entry(ROW)]), FILE).entries).toEqual([entry('silent-after-cancel'), entry('stops-after-cancel')]);
  });

  it('beside one of those checks named on its own, it is a duplicate naming both entries', () => {
    let error: unknown;
    try {
      parseBaseline(file([entry('stops-after-cancel'), entry(ROW)]), FILE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => [p.field, p.message])).toEqual([
      ['entries[1]', 'duplicate entry: entries[0] already lists slow/in-flight/cancel stops-after-cancel'],
    ]);
  });

  it('an id no check tests is refused, and the message lists the ids that are', () => {
    let error: unknown;
    try {
      parseBaseline(file([entry('sep-2575-server-implements-discover')]), FILE);
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems.map((p) => [p.field, p.message])).toEqual([
      ['entries[0].check', expect.stringMatching(new RegExp(`^expected one of exit-on-eof, .*, ${ROW}, got "sep-2575-server-implements-discover"$`))],
    ]);
  });
});
