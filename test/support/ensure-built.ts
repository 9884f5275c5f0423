/**
 * The tests run what the build compiled (dist/). `npm test` builds first; when an output is
 * missing (vitest alone on a fresh checkout) build here. tsc may exit non-zero for errors in files
 * that are not ours and still emit, so only the presence of the outputs is checked.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { packageRoot } from '../../harness/util/paths.js';

/** Builds when any of `outputs` (absolute paths) is missing; throws naming `what` when the build did not make them. */
export function ensureBuilt(outputs: readonly string[], what: string): void {
  const missing = () => outputs.some((file) => !existsSync(file));
  if (!missing()) return;
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: packageRoot(), stdio: 'ignore' });
  } catch {
    // see above
  }
  if (missing()) throw new Error(`${what} not built: run npm run build`);
}
