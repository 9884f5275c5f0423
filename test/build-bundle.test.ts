/**
 * The build's bundles (harness/build/bundle.ts): after `npm run build` the fake servers' SDK
 * modules and the harness's entry points (dist/bin/) import nothing but Node's built-ins and
 * their own chunks, and they work: the SDK gives the real SDK's classes, the bundled CLI runs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HARNESS_ENTRIES, importSpecifiers, SDK_MODULES, SHARED_WITH_USER_CODE } from '../harness/build/bundle.js';
import { packageRoot } from '../harness/util/paths.js';

const root = packageRoot();
const builtinOrLocal = (spec: string): boolean => spec.startsWith('node:') || spec.startsWith('./') || spec.startsWith('../');

describe('the build bundles', () => {
  it('reads the specifiers of a module, packages and built-ins alike', () => {
    const text =
      "import process from 'node:process';\nexport { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { x } from \"./chunks/a.js\";\n";
    expect(importSpecifiers(text)).toEqual(['node:process', '@modelcontextprotocol/sdk/server/mcp.js', './chunks/a.js']);
    expect(importSpecifiers(text).every(builtinOrLocal)).toBe(false);
  });

  it.each(Object.keys(SDK_MODULES))('%s is one file that imports only node: built-ins, and is the real SDK', async (rel) => {
    const specifiers = importSpecifiers(readFileSync(join(root, rel), 'utf8'));
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s.startsWith('node:'))).toEqual([]);
    const sdk = await import(pathToFileURL(join(root, rel)).href);
    expect(typeof sdk.McpServer).toBe('function');
    expect(typeof sdk.StdioServerTransport).toBe('function');
    expect(sdk.z.object({ a: sdk.z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
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
