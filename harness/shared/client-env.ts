/**
 * The environment a client gives its server (harness/client-profiles/profiles.ts, `SpawnEnv`):
 * an allowlist of names from the client's own environment, or all of it less the names a
 * client redacts, and the server's configured variables on top. The drill's client is the
 * harness (or its client process, which inherits the harness's environment), so "the client's
 * environment" is this process's.
 */
import type { SpawnEnv } from '../client-profiles/profiles.js';

/**
 * `allowlist`: those names, skipping a value that is an exported shell function (`()` ...), as
 * the TypeScript and Python SDKs' default environments do. `whole`: every name but those whose
 * name contains one of `withoutNamesMatching`, case-insensitively (Gemini CLI's
 * NEVER_ALLOWED_NAME_PATTERNS are /TOKEN/i and the like).
 */
export function clientEnv(env: SpawnEnv, own: NodeJS.ProcessEnv, configured: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.kind === 'allowlist') {
    for (const name of env.names) {
      const value = own[name];
      if (value !== undefined && !value.startsWith('()')) out[name] = value;
    }
  } else {
    const redacted = env.withoutNamesMatching.map((p) => p.toUpperCase());
    for (const [name, value] of Object.entries(own)) {
      if (value === undefined) continue;
      const upper = name.toUpperCase();
      if (!redacted.some((p) => upper.includes(p))) out[name] = value;
    }
  }
  return { ...out, ...configured };
}
