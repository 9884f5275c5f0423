/**
 * The holder's, the stand-in's, the sentinel's and the run lock's perl are real files (harness/drill/holder/*.pl,
 * harness/registry/sentinel-wait.pl, harness/registry/run-lock.pl, harness/drill/network/*.pl): perl itself
 * compiles each one (`perl -c`, with warnings), and what the harness runs is that file.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOLDER_SCRIPT, PERL_DIR, STAND_IN_SCRIPT } from '../../../harness/drill/holder/scripts.js';
import { JOIN_SCRIPT, KEEPER_SCRIPT } from '../../../harness/drill/network/namespace.js';
import { runLockScript } from '../../../harness/registry/run-lock.js';
import { perlWaitScript } from '../../../harness/registry/sentinel.js';
import { packageRoot } from '../../../harness/util/paths.js';

describe('the perl files', () => {
  it.each([
    [join(PERL_DIR, 'holder.pl'), HOLDER_SCRIPT, 'use strict; use warnings;'],
    [join(PERL_DIR, 'stand-in.pl'), STAND_IN_SCRIPT, 'use strict; use warnings;'],
    [join(packageRoot(), 'harness/registry/sentinel-wait.pl'), perlWaitScript(), "my $t = '';"],
    [join(packageRoot(), 'harness/registry/run-lock.pl'), runLockScript(), 'use strict; use warnings;'],
    [join(packageRoot(), 'harness/drill/network/keeper.pl'), KEEPER_SCRIPT, 'use strict; use warnings;'],
    [join(packageRoot(), 'harness/drill/network/join.pl'), JOIN_SCRIPT, 'use strict; use warnings;'],
  ])('%s compiles under perl -c -w and is what the harness runs', (file, loaded, start) => {
    const checked = spawnSync('perl', ['-c', '-w', file], { encoding: 'utf8' });
    expect(checked.stderr.trim()).toBe(`${file} syntax OK`);
    expect(checked.status).toBe(0);
    // The harness runs the file without its leading comment, and nothing else.
    expect(readFileSync(file, 'utf8').endsWith(loaded)).toBe(true);
    expect(loaded.startsWith(start)).toBe(true);
  });

  it('perl -c fails on a broken script: the check can fail', () => {
    const checked = spawnSync('perl', ['-c', '-w', '-e', 'my $x = ;'], { encoding: 'utf8' });
    expect(checked.status).not.toBe(0);
    expect(checked.stderr).toMatch(/syntax error/);
  });
});
