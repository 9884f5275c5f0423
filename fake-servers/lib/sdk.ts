/**
 * The SDK the Node fake servers are built on (@modelcontextprotocol/sdk 1.32.2 and zod 4), in
 * one module. `npm run build` replaces the compiled dist/fake-servers/lib/sdk.js with a single
 * file holding these packages' code (harness/build/bundle-fake-servers.ts): the same SDK, read
 * from one file instead of a few hundred, so a fake server starts in about half the CPU time.
 * Servers import the SDK only through this module.
 */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
