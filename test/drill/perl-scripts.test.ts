/**
 * The holder's and the stand-in's perl are real files (harness/drill/holder/*.pl): perl itself
 * compiles each one (`perl -c`, with warnings), and what the harness runs is that file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOLDER_SCRIPT, PERL_DIR, STAND_IN_SCRIPT } from '../../harness/drill/holder/scripts.js';

describe('the perl files', () => {
  it.each([
    ['holder.pl', HOLDER_SCRIPT],
    ['stand-in.pl', STAND_IN_SCRIPT],
  ])('%s compiles under perl -c -w and is what the harness runs', (name, loaded) => {
    const file = join(PERL_DIR, name);
    const checked = spawnSync('perl', ['-c', '-w', file], { encoding: 'utf8' });
    expect(checked.stderr.trim()).toBe(`${file} syntax OK`);
    expect(checked.status).toBe(0);
    // The harness runs the file without its leading comment, and nothing else.
    expect(readFileSync(file, 'utf8').endsWith(loaded)).toBe(true);
    expect(loaded.startsWith('use strict; use warnings;')).toBe(true);
  });

  it('perl -c fails on a broken script: the check can fail', () => {
    const checked = spawnSync('perl', ['-c', '-w', '-e', 'my $x = ;'], { encoding: 'utf8' });
    expect(checked.status).not.toBe(0);
    expect(checked.stderr).toMatch(/syntax error/);
  });
});
