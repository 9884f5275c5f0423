/**
 * The SDK the Node fake servers are built on (@modelcontextprotocol/sdk 1.32.2 and zod 4), in
 * one module. `npm run build` replaces the compiled dist/fake-servers/lib/sdk.js with a single
 * file holding these packages' code (harness/build/bundle.ts): the same SDK, read from one file
 * instead of a few hundred, so a fake server starts in about 0.20 CPU-s instead of 0.28. Servers import
 * the SDK only through this module. zod is exported as the few builders the servers use, not
 * as its namespace, so the bundle leaves out what no server needs.
 */
import { number, object, string } from 'zod';

export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export const z = { number, object, string };
