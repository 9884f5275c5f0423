/**
 * The SDK the SDK 2 fake servers are built on (@modelcontextprotocol/server 2.4.0 and zod 4), in
 * one module, bundled into a single file by `npm run build` like ../../lib/sdk.ts. Servers import
 * the SDK only through this module.
 */
import { number, object, string } from 'zod';

export { McpServer } from '@modelcontextprotocol/server';
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
export const z = { number, object, string };
