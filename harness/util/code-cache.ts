/**
 * Loads a CommonJS bundle that `npm run build` wrote (harness/build/bundle.ts: the fake servers'
 * SDK, dist/fake-servers/lib/sdk.cjs and its SDK 2 twin; the drill client, dist/bin/drill-client.cjs)
 * through a V8 code cache: the bundle is compiled with the cache the build made beside it
 * (<bundle>.cache), so a process start skips most of parsing and compiling its SDK and zod. The
 * cache is written by the build only, after one evaluation (and the warm-up it names), so it also
 * holds the functions that evaluation compiled; a process only reads it. V8 refuses a cache made
 * by another V8 or with other flags, and the bundle is then compiled as if there were none: the
 * same code runs either way.
 *
 * `node code-cache.js --write <bundle.cjs> [warm-up]`: the build's step that writes
 * <bundle.cjs>.cache, once the bundle is evaluated and its export `warm-up`, if named, has run.
 */
import { readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type Exports = Record<string, unknown>;

/** What became of each bundle's cache in this process: taken, refused by V8, or not there. */
const cacheUse = new Map<string, 'accepted' | 'rejected' | 'none'>();

/** How the bundle at `file` was compiled in this process (undefined: not loaded here). */
export function cacheUseOf(file: string): 'accepted' | 'rejected' | 'none' | undefined {
  return cacheUse.get(file);
}
type Wrapper = (exports: Exports, require: NodeJS.Require, module: { exports: Exports }, filename: string, dirname: string) => void;

/** Evaluates the CommonJS bundle at `file` as Node's loader would (same wrapper), compiled with `cachedData` if given. */
function evaluate(file: string, cachedData: Buffer | undefined): { script: Script; exports: Exports } {
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const wrapper = script.runInThisContext() as Wrapper;
  const module = { exports: {} as Exports };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { script, exports: module.exports };
}

/** Evaluates the CommonJS bundle at `file` with its code cache when there is one. */
export function loadBundle(file: string): Exports {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    // no cache (a build that could not write one): compiled as usual
  }
  const { script, exports } = evaluate(file, cachedData);
  cacheUse.set(file, cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted');
  return exports;
}

/** The build's step: evaluates the bundle, awaits its export `warmUp` if named, and writes <file>.cache. */
export async function writeCodeCache(file: string, warmUp?: string): Promise<void> {
  const { script, exports } = evaluate(file, undefined);
  if (warmUp) await (exports[warmUp] as () => Promise<unknown>)();
  const cacheFile = `${file}.cache`;
  const tmp = `${cacheFile}.tmp-${process.pid}`;
  writeFileSync(tmp, script.createCachedData());
  renameSync(tmp, cacheFile);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--write' && process.argv[3]) {
  await writeCodeCache(process.argv[3], process.argv[4]);
}
