/**
 * The fake servers load their SDK from one bundled file (harness/build/bundle-fake-servers.ts):
 * after `npm run build` dist/fake-servers/lib/sdk.js and its SDK 2 twin import only Node's
 * built-ins, and still give the real SDK's classes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsPackages, SDK_MODULES } from '../../harness/build/bundle-fake-servers.js';
import { packageRoot } from '../../harness/util/paths.js';

const root = packageRoot();

describe('the bundled SDK of the fake servers', () => {
  it('tells what tsc emits (package imports) from a bundle (built-ins only)', () => {
    expect(importsPackages("export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n")).toBe(true);
    expect(importsPackages("export { z } from 'zod';\n")).toBe(true);
    expect(importsPackages('import process from "node:process";\nimport { x } from "./local.js";\nexport { McpServer };\n')).toBe(false);
  });

  it.each(SDK_MODULES)('%s is a bundle that imports only node: built-ins', async (rel) => {
    const text = readFileSync(join(root, rel), 'utf8');
    expect(importsPackages(text)).toBe(false);
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(specifiers.every((s) => s.startsWith('node:'))).toBe(true);
    const sdk = await import(pathToFileURL(join(root, rel)).href);
    expect(typeof sdk.McpServer).toBe('function');
    expect(typeof sdk.StdioServerTransport).toBe('function');
    expect(sdk.z.object({ a: sdk.z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});
