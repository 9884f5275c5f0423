/** perl for the processes the harness starts as perl (harness/drill/holder/, harness/registry/sentinel.ts): found once, and a file's code for `perl -e`. */
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

let perlPath: string | null | undefined;

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

/** prctl's syscall number by process.arch, so perl loads no module to find it; others fall back to syscall.ph. */
const PRCTL_SYSCALL: Partial<Record<string, number>> = {
  x64: 157,
  arm64: 167,
  riscv64: 167,
  loong64: 167,
  ia32: 172,
  arm: 172,
  s390x: 172,
  ppc64: 171,
};

export function prctlArgument(arch: string = process.arch): string {
  return String(PRCTL_SYSCALL[arch] ?? '');
}
