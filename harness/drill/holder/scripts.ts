/**
 * The holder's perl (holder.pl) and the stand-in's (stand-in.pl), read once from the package:
 * real perl files that `perl -c` checks (test/drill/perl-scripts.test.ts) and the package ships
 * (package.json "files"). The holder is started as `perl -e <holder.pl> ...`; the stand-in's code
 * goes to the holder as an argument and is compiled in the holder before its fork. Each file's
 * leading comment (what it is and how it is called) stays in the file, not in every command line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../util/paths.js';

/** The folder of the perl files: the same in a checkout and in an installed package. */
export const PERL_DIR = join(packageRoot(), 'harness', 'drill', 'holder');

/** A perl file's code for `perl -e`: without its leading comment block (every line up to the first that is not a comment). */
export function perlFile(path: string): string {
  return readFileSync(path, 'utf8').replace(/^(?:#[^\n]*\n)+/, '');
}

export const HOLDER_SCRIPT = perlFile(join(PERL_DIR, 'holder.pl'));
export const STAND_IN_SCRIPT = perlFile(join(PERL_DIR, 'stand-in.pl'));
