/**
 * Variables the drill client's Node start would pay for and never use, held back from it and
 * given back to its server: Node parses all of NODE_EXTRA_CA_CERTS before it runs a line
 * (docs/measurements.md), and the client makes no TLS connection.
 */
const HELD_BACK = ['NODE_EXTRA_CA_CERTS'] as const;
const CARRIER = 'CRASH_DRILL_HELD_ENV';

/** `env` for the client process: the held-back variables moved into the carrier. */
export function holdBack(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  const held: Record<string, string> = {};
  for (const name of HELD_BACK) {
    const value = out[name];
    if (value === undefined) continue;
    held[name] = value;
    delete out[name];
  }
  if (Object.keys(held).length > 0) out[CARRIER] = JSON.stringify(held);
  else delete out[CARRIER];
  return out;
}

/** The client's environment as it was before holdBack (what the server inherits); `env` itself where nothing was held back. */
export function restoreHeld(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const raw = env[CARRIER];
  if (raw === undefined) return env;
  const out = { ...env };
  delete out[CARRIER];
  try {
    Object.assign(out, JSON.parse(raw) as Record<string, string>);
  } catch {
    // not ours: the variable is dropped, nothing is restored
  }
  return out;
}
