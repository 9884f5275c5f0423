/**
 * docs/client-profiles.md's measured tables are the data file's (bench/client-profiles/measured.json),
 * cell for cell, both ways: a cell changed in either is caught.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_REFS } from '../../harness/client-profiles/profiles.js';
import { DOCS_FILE, docsTables, measured } from './support/measured.js';

describe('the measured ground truth', () => {
  it('the docs show exactly the data file, for every profile and range', () => {
    const data = measured();
    const docs = docsTables(readFileSync(DOCS_FILE, 'utf8'));
    expect(data.profiles).toEqual([...PROFILE_REFS]);
    expect(docs).toEqual({ profiles: data.profiles, stop: data.stop, crash: data.crash });
  });

  it('a cell changed in the docs no longer matches: the check can fail', () => {
    const text = readFileSync(DOCS_FILE, 'utf8');
    // The first row of the stop table, ts-sdk's cell: "helper + server" becomes "none".
    const changed = text.replace('| launcher-forwards-nothing | helper + server |', '| launcher-forwards-nothing | none |');
    expect(changed).not.toBe(text);
    const data = measured();
    expect(docsTables(changed).stop).not.toEqual(data.stop);
    expect(docsTables(changed).crash).toEqual(data.crash);
  });

  it('a cell changed in a continuation table (the clients read since) no longer matches either', () => {
    const text = readFileSync(DOCS_FILE, 'utf8');
    const at = text.indexOf('#### stop, more clients:');
    expect(at).toBeGreaterThan(0);
    // The leaks-child row of that table: its first cell (cline's) becomes "child".
    const changed = text.slice(0, at) + text.slice(at).replace(/^\| leaks-child \| [^|]+\|/m, '| leaks-child | child |');
    expect(changed).not.toBe(text);
    expect(docsTables(changed).stop['leaks-child'].cline).toBe('child');
    expect(docsTables(changed).stop).not.toEqual(measured().stop);
  });
});
