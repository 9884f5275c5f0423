/** A configured server's env values live on a non-enumerable symbol, so JSON.stringify and spread never carry them; only `init` reads them. */
import type { ConfiguredServer } from './types.js';

const VALUES = Symbol('crash-drill.env-values');

export function withEnvValues(server: ConfiguredServer, env: Readonly<Record<string, string | null>>): ConfiguredServer {
  Object.defineProperty(server, VALUES, { value: Object.freeze({ ...env }), enumerable: false });
  return server;
}

/** The configured env values (null: the client removes the variable). Never print them. */
export function envValues(server: ConfiguredServer): Readonly<Record<string, string | null>> {
  return (server as unknown as Record<symbol, Record<string, string | null> | undefined>)[VALUES] ?? {};
}
