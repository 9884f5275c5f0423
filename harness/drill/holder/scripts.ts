/**
 * The holder's perl (holder.pl) and the stand-in's (stand-in.pl), read once from the package:
 * real perl files that `perl -c` checks (test/drill/holder/perl-scripts.test.ts) and the package ships
 * (package.json "files"). The holder is started as `perl -e <holder.pl> ...`; the stand-in's code
 * goes to the holder as an argument and is compiled in the holder before its fork. Each file's
 * leading comment (what it is and how it is called) stays in the file, not in every command line.
 */
import { join } from 'node:path';
import { packageRoot } from '../../util/paths.js';
import { perlFile } from '../../util/perl.js';

/** The folder of the perl files: the same in a checkout and in an installed package. */
export const PERL_DIR = join(packageRoot(), 'harness', 'drill', 'holder');

export const HOLDER_SCRIPT = perlFile(join(PERL_DIR, 'holder.pl'));
export const STAND_IN_SCRIPT = perlFile(join(PERL_DIR, 'stand-in.pl'));
