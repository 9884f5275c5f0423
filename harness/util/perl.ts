/**
 * perl, for the processes the harness starts as perl (the drill holder and its stand-in,
 * harness/drill/holder/; the run's sentinel, harness/registry/sentinel.ts): found on PATH once,
 * and a perl file's code for `perl -e`.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

let perlPath: string | null | undefined;

/** perl on PATH (looked up once), or null. */
export function findPerl(): string | null {
  if (perlPath !== undefined) return perlPath;
  perlPath = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, 'perl'), constants.X_OK);
      perlPath = join(dir, 'perl');
      break;
    } catch {
      // not here
    }
  }
  return perlPath;
}

/** A perl file's code for `perl -e`: without its leading comment block (every line up to the first that is not a comment). */
export function perlFile(path: string): string {
  return readFileSync(path, 'utf8').replace(/^(?:#[^\n]*\n)+/, '');
}
