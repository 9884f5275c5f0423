/**
 * Whether the server served before it lost its client: it answered a request other than
 * `server/discover` and `ping`, which rmcp answers from inside `serve()` (rust-sdk
 * crates/rmcp/src/service/server.rs `serve_server_with_ct_inner`, 3.11.0).
 */
import { eventsOf, type DrillEvidence } from './types.js';

/** Requests that do not take a server out of its handshake. */
const NOT_SERVING = new Set(['server/discover', 'ping']);

/** The first answer that shows the server serving, before `until`: its time and the request's method; null when none. */
export function firstServed(evidence: DrillEvidence, until: number): { t: number; method: string } | null {
  const methods = new Map<string, string>();
  for (const e of eventsOf(evidence, 'rpc-out')) {
    const m = e.message as { id?: unknown; method?: unknown };
    if (m.id !== undefined && typeof m.method === 'string') methods.set(String(m.id), m.method);
  }
  for (const e of eventsOf(evidence, 'rpc-in')) {
    if (e.t > until) break;
    const m = e.message as { id?: unknown; result?: unknown };
    if (m.id === undefined || m.result === undefined) continue;
    const method = methods.get(String(m.id));
    if (method !== undefined && !NOT_SERVING.has(method)) return { t: e.t, method };
  }
  return null;
}

/** The server's first stderr line after `from` that reads like an error, else its last line before `until`. */
export function errorLine(evidence: DrillEvidence, from: number, until: number): string | null {
  const lines = eventsOf(evidence, 'subject-stderr')
    .filter((e) => e.t > from && e.t <= until)
    .map((e) => e.text)
    .join('')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.find((l) => /error|panic|fatal|failed|exception/i.test(l)) ?? lines[lines.length - 1] ?? null;
  return line === null ? null : line.length > 200 ? `${line.slice(0, 200)}...` : line;
}
