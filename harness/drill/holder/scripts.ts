/**
 * The holder's and the stand-in's perl, read once from the package: real files that `perl -c`
 * checks (test/drill/holder/perl-scripts.test.ts), run with `perl -e` without their leading comment.
 */
import { join } from 'node:path';
import { packageRoot } from '../../util/paths.js';
import { perlFile } from '../../util/perl.js';

/** The folder of the perl files: the same in a checkout and in an installed package. */
export const PERL_DIR = join(packageRoot(), 'harness', 'drill', 'holder');

export const HOLDER_SCRIPT = perlFile(join(PERL_DIR, 'holder.pl'));
export const STAND_IN_SCRIPT = perlFile(join(PERL_DIR, 'stand-in.pl'));
