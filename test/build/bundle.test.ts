/**
 * The build's bundles (harness/build/bundle.ts): after `npm run build` the fake servers' SDK
 * bundles, the drill client's and the harness's entry points (dist/bin/) import nothing but
 * Node's built-ins and their own chunks, and they work: the SDK and the drill client load
 * through the code cache the build made (and without it, compiled as usual), the SDK gives the
 * real SDK's classes, the bundled CLI runs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CODE_CACHE_LOADER,
  DRILL_CLIENT,
  HARNESS_ENTRIES,
  importSpecifiers,
  SDK_MODULES,
  SHARED_WITH_USER_CODE,
  sdkBundleOf,
} from '../../harness/build/bundle.js';
import { EXIT } from '../../harness/util/errors.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();
const builtinOrLocal = (spec: string): boolean => spec.startsWith('node:') || spec.startsWith('./') || spec.startsWith('../');
const loader = pathToFileURL(join(root, CODE_CACHE_LOADER)).href;

/** A stub's imports (node: built-ins and the loader only) and its bundle's requires (node: built-ins only). */
function expectOnlyBuiltins(stubFromRoot: string): string {
  const stub = importSpecifiers(readFileSync(join(root, stubFromRoot), 'utf8'));
  expect(stub.filter((s) => !s.startsWith('node:') && !s.endsWith('/code-cache.js'))).toEqual([]);
  const bundle = join(root, sdkBundleOf(stubFromRoot));
  const required = [...readFileSync(bundle, 'utf8').matchAll(/^(?:let|const|var)\s+[\w$]+\s*=\s*(?:__toESM\()?require\("([^"]+)"\)/gm)].map((m) => m[1]);
  expect(required.length).toBeGreaterThan(0);
  expect(required.filter((s) => !s.startsWith('node:'))).toEqual([]);
  return bundle;
}

/** In a process of its own: how the bundle compiled (its cache taken or not) and the type of its export `name`. */
function probeBundle(bundle: string, name: string): string {
  const probe = `const { loadBundle, cacheUseOf } = await import(${JSON.stringify(loader)}); const m = loadBundle(${JSON.stringify(bundle)}); console.log(cacheUseOf(${JSON.stringify(bundle)}), typeof m[${JSON.stringify(name)}]);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('the build bundles', () => {
  it('reads the specifiers of a module, packages and built-ins alike', () => {
    const text =
      "import process from 'node:process';\nexport { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { x } from \"./chunks/a.js\";\n";
    expect(importSpecifiers(text)).toEqual(['node:process', '@modelcontextprotocol/sdk/server/mcp.js', './chunks/a.js']);
    expect(importSpecifiers(text).every(builtinOrLocal)).toBe(false);
  });

  it.each(Object.keys(SDK_MODULES))(
    '%s loads one CommonJS bundle that requires only node: built-ins, through a code cache V8 takes, and is the real SDK',
    async (rel) => {
      const bundle = expectOnlyBuiltins(rel);
      // A server's start, in a process of its own: the cache the build made is the one it compiles with.
      const probe = `await import(${JSON.stringify(pathToFileURL(join(root, rel)).href)}); const { cacheUseOf } = await import(${JSON.stringify(loader)}); console.log(cacheUseOf(${JSON.stringify(bundle)}));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('accepted');
      const sdk = await import(pathToFileURL(join(root, rel)).href);
      expect(typeof sdk.McpServer).toBe('function');
      expect(typeof sdk.StdioServerTransport).toBe('function');
      expect(sdk.z.object({ a: sdk.z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    },
  );

  it('the drill client is one CommonJS bundle that requires only node: built-ins, compiled with its code cache, or without one as usual', () => {
    const bundle = expectOnlyBuiltins(DRILL_CLIENT.stub);
    expect(probeBundle(bundle, DRILL_CLIENT.run)).toBe('accepted function');
    // Another bundle's cache beside a copy: V8 refuses it and the client compiles from its text.
    const copy = join(tempDir(), 'drill-client.cjs');
    copyFileSync(bundle, copy);
    copyFileSync(`${join(root, sdkBundleOf(Object.keys(SDK_MODULES)[0]))}.cache`, `${copy}.cache`);
    expect(probeBundle(copy, DRILL_CLIENT.run)).toBe('rejected function');
  });

  it('the drill client stub runs the client, which needs the harness at the other end of an IPC channel', () => {
    const run = spawnSync(process.execPath, [join(root, DRILL_CLIENT.stub)], { encoding: 'utf8' });
    expect(run.stderr).toBe('crash-drill client: must be started by the harness with an IPC channel\n');
    expect(run.status).toBe(EXIT.harness);
  });

  it('dist/bin holds one file per entry point, and it and its chunks import no package but the ones user code shares (msw)', () => {
    const bin = join(root, 'dist/bin');
    for (const name of Object.keys(HARNESS_ENTRIES)) expect(readdirSync(bin)).toContain(`${name}.js`);
    const files = [...Object.keys(HARNESS_ENTRIES).map((n) => join(bin, `${n}.js`)), ...readdirSync(join(bin, 'chunks')).map((f) => join(bin, 'chunks', f))];
    const packages = files.flatMap((f) =>
      importSpecifiers(readFileSync(f, 'utf8'))
        .filter((s) => !builtinOrLocal(s) && !SHARED_WITH_USER_CODE.some((p) => p.test(s)))
        .map((s) => `${f}: ${s}`),
    );
    expect(packages).toEqual([]);
  });

  it('the bundled CLI runs, and loads a command from its chunks (test/cli/ runs it end to end with every reporter)', () => {
    const run = spawnSync(process.execPath, [join(root, 'dist/bin/crash-drill.js'), 'verify', join(root, 'no-such-folder')], { encoding: 'utf8' });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('no-such-folder');
    const help = spawnSync(process.execPath, [join(root, 'dist/bin/crash-drill.js'), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: crash-drill');
  });
});
