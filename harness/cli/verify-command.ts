import { displayPath } from '../util/paths.js';
import { verifyLine, verifyPath, VerifyPathError } from '../evidence/verify.js';
import { commandExit, EXIT } from '../util/errors.js';

type Out = { write(s: string): unknown };

/**
 * `crash-drill verify <file or folder>`: one line per log, then `N verified, N broken`.
 * Exit 0 all ok, 1 any broken, 3 a path that is neither a log nor a folder.
 */
export function verifyCommand(path: string, out: Out = process.stdout, err: Out = process.stderr): Promise<number> {
  return commandExit(err, 'verify', () => {
    const results = verifyPath(path);
    if (results.length === 0) throw new VerifyPathError(`${path}: no evidence log (*.jsonl) in this folder`);
    for (const result of results) out.write(`${verifyLine(result, displayPath(result.file))}\n`);
    const broken = results.filter((r) => !r.ok).length;
    out.write(`${results.length - broken} verified, ${broken} broken\n`);
    return broken > 0 ? EXIT.failed : EXIT.ok;
  });
}
