/**
 * Why exit-on-eof failed for a server that did exit, but not from EOF: it exited with an error
 * before it served one request (evidence/serving.ts). Pure: evidence in, text out.
 */
import { firstOf, eventsOf, type DrillEvidence } from '../../evidence/types.js';
import { serverExitOf } from '../../evidence/queries.js';
import type { Cause } from '../types.js';
import { sdkFinding } from './sdk.js';

function exitWords(evidence: DrillEvidence): string {
  const exit = serverExitOf(evidence);
  const lost = firstOf(evidence, 'client-lost');
  if (!exit) return 'it exited';
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
  return `it exited (${how}) ${lost ? Math.round(exit.t - lost.t) : '?'} ms after losing its client`;
}

/** What the drill's client had sent and had answered before the loss. */
function requestsBeforeLoss(evidence: DrillEvidence): string {
  const lost = firstOf(evidence, 'client-lost')?.t ?? Number.POSITIVE_INFINITY;
  const answered = new Set(
    eventsOf(evidence, 'rpc-in')
      .filter((e) => e.t <= lost)
      .map((e) => String((e.message as { id?: unknown }).id)),
  );
  const sent = eventsOf(evidence, 'rpc-out')
    .filter((e) => e.t <= lost)
    .map((e) => e.message as { id?: unknown; method?: unknown })
    .filter((m) => m.id !== undefined && typeof m.method === 'string')
    .map((m) => `${m.method}${answered.has(String(m.id)) ? '' : ' (unanswered)'}`);
  return sent.length > 0 ? sent.join(', ') : 'none';
}

export function exitedBeforeServing(evidence: DrillEvidence, line: string | null): Cause {
  const sdk = sdkFinding(evidence);
  return {
    cause: `the server exited with an error before serving: ${exitWords(evidence)}, having answered no request but server/discover and ping${line ? `; its stderr says ${JSON.stringify(line)}` : ''}. Its handshake failed at EOF; its shutdown after serving was never reached, so this drill cannot show it`,
    observed: [`requests before the loss: ${requestsBeforeLoss(evidence)}`, ...(line ? [`stderr: ${line}`] : []), `SDK: ${sdk.line}`],
    sdk: sdk.known,
    fix: 'answer the requests a client sends right after it connects (tools/list) and drill again; a server whose run call fails when its input ends before the first request should treat that end as a shutdown, not an error (rmcp: serve() returns Err(ConnectionClosed) then)',
  };
}
