import { relative } from 'node:path';
import { verifyLine, verifyPath, VerifyPathError } from '../evidence/verify.js';

const EXIT_BROKEN = 1;
const EXIT_PATH = 3;

type Out = { write(s: string): unknown };

/** Paths are printed relative to the working folder when they are inside it: shorter lines. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/**
 * `crash-drill verify <file or folder>`: one line per log, then `N verified, N broken`.
 * Exit 0 all ok, 1 any broken, 3 a path that is neither a log nor a folder.
 */
export function verifyCommand(path: string, out: Out = process.stdout, err: Out = process.stderr): number {
  let results;
  try {
    results = verifyPath(path);
  } catch (error) {
    if (error instanceof VerifyPathError) {
      err.write(`crash-drill: verify: ${error.message}\n`);
      return EXIT_PATH;
    }
    throw error;
  }
  if (results.length === 0) {
    err.write(`crash-drill: verify: ${path}: no evidence log (*.jsonl) in this folder\n`);
    return EXIT_PATH;
  }
  for (const result of results) out.write(`${verifyLine(result, displayPath(result.file))}\n`);
  const broken = results.filter((r) => !r.ok).length;
  out.write(`${results.length - broken} verified, ${broken} broken\n`);
  return broken > 0 ? EXIT_BROKEN : 0;
}
