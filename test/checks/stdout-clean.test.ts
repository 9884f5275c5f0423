import { describe, expect, it } from 'vitest';
import { runChecks } from '../../harness/checks/all-checks.js';
import { stdoutClean } from '../../harness/checks/stdout-clean/check.js';
import { passingDrill } from './evidence-builder.js';

describe('stdout-clean', () => {
  it('passes when every stdout line was a JSON-RPC message, counting them', () => {
    expect(stdoutClean.run(passingDrill().build())).toEqual({
      id: 'stdout-clean',
      verdict: 'pass',
      summary: 'all 2 stdout lines were JSON-RPC messages',
      data: { messages: 2, noise: 0 },
    });
  });

  it('fails with the count and the first noise line, quoted', () => {
    const ev = passingDrill().stdoutNoise(1120, 'server listening on stdio').stdoutNoise(1130, 'debug: tools loaded').build();
    expect(stdoutClean.run(ev)).toEqual({
      id: 'stdout-clean',
      verdict: 'fail',
      summary: '2 stdout lines not JSON-RPC, first: "server listening on stdio"',
      data: { messages: 2, noise: 2, lines: ['server listening on stdio', 'debug: tools loaded'] },
    });
  });

  it('uses the singular for one line and cuts the quoted line at 120 characters', () => {
    const line = 'n'.repeat(300);
    const result = stdoutClean.run(passingDrill().stdoutNoise(1120, line).build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(`1 stdout line not JSON-RPC, first: "${'n'.repeat(120)}"`);
    expect(result.data.lines).toEqual([line]);
  });

  it('keeps at most ten noise lines of at most 500 characters in its data', () => {
    let b = passingDrill();
    for (let i = 0; i < 12; i++) b = b.stdoutNoise(1120 + i, `${i}:${'z'.repeat(600)}`);
    const result = stdoutClean.run(b.build());
    expect(result.data.noise).toBe(12);
    const lines = result.data.lines as string[];
    expect(lines).toHaveLength(10);
    expect(lines.map((l) => l.length)).toEqual(Array(10).fill(500));
    expect(lines[0].startsWith('0:zzz')).toBe(true);
    expect(lines[9].startsWith('9:zzz')).toBe(true);
  });

  it('applies in every mode, including hang', () => {
    for (const mode of ['crash', 'close', 'hang'] as const) {
      const ev = passingDrill({ mode }).stdoutNoise(1120, 'oops').build();
      expect(stdoutClean.applies(ev, mode)).toBe(true);
      expect(runChecks(ev).find((c) => c.id === 'stdout-clean')?.verdict).toBe('fail');
    }
  });

  it('is off when expect.stdoutClean is false, so noise does not fail the drill', () => {
    const ev = passingDrill({ expect: { stdoutClean: false } })
      .stdoutNoise(1120, 'oops')
      .build();
    expect(stdoutClean.applies(ev, 'crash')).toBe(false);
    expect(runChecks(ev).map((c) => [c.id, c.verdict])).toEqual([
      ['exit-on-eof', 'pass'],
      ['no-survivors', 'pass'],
    ]);
  });
});
