/** The environment a client gives its server (harness/client-profiles/types.ts, `SpawnEnv`); the client is this process. */
import type { EnvRule, SpawnEnv } from '../client-profiles/profiles.js';

/** Whether `rule` matches the variable (name upper-cased; value tested case-insensitively). */
function matches(rule: EnvRule, name: string, value: string, strict: boolean): boolean {
  if (rule.whenStrict) return strict;
  return (
    (rule.names ?? []).includes(name) ||
    (rule.prefixes ?? []).some((p) => name.startsWith(p)) ||
    (rule.containing ?? []).some((p) => name.includes(p)) ||
    (rule.values ?? []).some((source) => new RegExp(source, 'i').test(value))
  );
}

/** `allowlist`: those names, skipping exported shell functions, as the SDKs do; `whole`: as Gemini CLI's sanitizeEnvironment keeps. */
export function clientEnv(env: SpawnEnv, own: NodeJS.ProcessEnv, configured: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.kind === 'allowlist') {
    for (const name of env.names) {
      const value = own[name];
      if (value !== undefined && !value.startsWith('()')) out[name] = value;
    }
  } else {
    const strict = (env.strictWhen ?? []).some((w) => (w.value === undefined ? Boolean(own[w.name]) : own[w.name] === w.value));
    for (const [name, value] of Object.entries(own)) {
      if (value === undefined) continue;
      const rule = env.rules.find((r) => matches(r, name.toUpperCase(), value, strict));
      if (rule === undefined || rule.keep) out[name] = value;
    }
  }
  return { ...out, ...configured };
}
