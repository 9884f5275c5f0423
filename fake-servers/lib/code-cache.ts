/**
 * Loads the fake servers' SDK bundle (dist/fake-servers/lib/sdk.cjs and its SDK 2 twin, written
 * by harness/build/bundle.ts) through a V8 code cache: the bundle is compiled with the cache
 * `npm run build` made beside it (<bundle>.cache), so a server start skips most of parsing and
 * compiling 0.74 MB of SDK and zod (about 100 to 60 ms of CPU here). The cache is written by
 * the build only, after one evaluation, so it also holds the functions that evaluation compiled;
 * a server only reads it. V8 refuses a cache made by another V8 or with other flags, and the
 * bundle is then compiled as if there were none: the same code runs either way.
 *
 * `node code-cache.js --write <bundle.cjs>`: the build's step that writes <bundle.cjs>.cache.
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

/** Evaluates the CommonJS bundle at `file` as Node's loader would (same wrapper), with its code cache when there is one. */
export function loadBundle(file: string, opts: { writeCache?: boolean } = {}): Exports {
  const cacheFile = `${file}.cache`;
  let cachedData: Buffer | undefined;
  if (!opts.writeCache) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // no cache (a build that could not write one): compiled as usual
    }
  }
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  cacheUse.set(file, cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted');
  const wrapper = script.runInThisContext() as Wrapper;
  const module = { exports: {} as Exports };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (opts.writeCache) {
    const tmp = `${cacheFile}.tmp-${process.pid}`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile);
  }
  return module.exports;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--write' && process.argv[3]) {
  loadBundle(process.argv[3], { writeCache: true });
}
