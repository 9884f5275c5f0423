import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonReporter, writeJsonAtomic } from '../../reports/json.js';
import { errored, failed, passed, runResults, unknown } from './fixtures.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('crash-drill-json-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('JsonReporter', () => {
  it('writes <out>/results.json with exactly the run results, two-space indented, and leaves no temp file', () => {
    const results = runResults([passed(), failed(), unknown(), errored()]);
    const reporter = new JsonReporter(dir);
    expect(reporter.name).toBe('json');
    reporter.onRunEnd(results);
    expect(readdirSync(dir)).toEqual(['results.json']);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    expect(text).toBe(JSON.stringify(results, null, 2) + '\n');
    expect(JSON.parse(text)).toEqual(results);
    expect(JSON.parse(text).summary).toEqual({ pass: 1, fail: 1, unknown: 1, error: 1 });
    expect(text).not.toMatch(/\u001b\[/);
  });

  it('creates a missing output folder', () => {
    const out = join(dir, 'crash-drill-report', 'nested');
    new JsonReporter(out).onRunEnd(runResults([passed()]));
    expect(readdirSync(out)).toEqual(['results.json']);
  });

  it('replaces an earlier results.json by rename, so a reader never sees half a file', () => {
    const file = join(dir, 'results.json');
    const old = '{"stale": true, "padding": "' + 'x'.repeat(10_000) + '"}';
    writeFileSync(file, old);
    const oldInode = statSync(file).ino;
    // A reader that opened the old file keeps reading it whole: an in-place rewrite would truncate it under them.
    const reader = openSync(file, 'r');
    try {
      const results = runResults([failed()]);
      new JsonReporter(dir).onRunEnd(results);
      expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(results, null, 2) + '\n');
      expect(statSync(file).ino).not.toBe(oldInode);
      expect(readFileSync(reader, 'utf8')).toBe(old);
      expect(readdirSync(dir)).toEqual(['results.json']);
    } finally {
      closeSync(reader);
    }
  });
});

describe('writeJsonAtomic', () => {
  it('writes any value to the named file through a temp file it renames away', () => {
    const file = join(dir, 'sub', 'value.json');
    writeJsonAtomic(file, { a: [1, 2], b: null });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": [\n    1,\n    2\n  ],\n  "b": null\n}\n');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['value.json']);
  });
});

describe('results.json written a drill at a time', () => {
  it('is byte for byte what JSON.stringify gives, for no drill, one and several', async () => {
    const { resultsJsonChunks } = await import('../../reports/json.js');
    const { runResults, passed, failed, unknown, errored } = await import('./fixtures.js');
    for (const drills of [[], [passed()], [passed(), failed(), unknown(), errored()]]) {
      const results = runResults(drills, { shard: undefined });
      expect([...resultsJsonChunks(results)].join('')).toBe(`${JSON.stringify(results, null, 2)}\n`);
    }
  });
});
