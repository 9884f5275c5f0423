/**
 * Why stdout-clean failed: what the server wrote on stdout that is not JSON-RPC, and when (a
 * startup banner, or output from a handler), from the stdout record in the evidence. Pure.
 */
import { eventsOf, firstOf, type DrillEvidence } from '../../evidence/types.js';
import { sdkFinding } from '../exit-on-eof/sdk.js';
import type { Cause } from '../types.js';

export function stdoutCause(evidence: DrillEvidence): Cause {
  const noise = eventsOf(evidence, 'stdout-noise');
  const handshake = firstOf(evidence, 'handshake');
  const sdk = sdkFinding(evidence);
  const early = noise.filter((n) => !handshake || n.t < handshake.t);
  const first = noise[0];
  const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}...` : s);
  const observed = [
    `${noise.length} line${noise.length === 1 ? '' : 's'} on stdout that ${noise.length === 1 ? 'is' : 'are'} not JSON-RPC (in the record), ${early.length} before the handshake completed`,
    ...(first ? [`the first: ${quote(first.line)}`] : []),
    `SDK: ${sdk.line}`,
  ];
  const where =
    early.length > 0 && early.length < noise.length
      ? 'a startup banner and output from a handler'
      : early.length > 0
        ? 'a startup banner (before the handshake)'
        : 'output from a handler (after the handshake)';
  const fix =
    sdk.runtime === 'python'
      ? 'print to stderr (print(..., file=sys.stderr), or logging, which writes to stderr): stdout is the protocol'
      : sdk.runtime === 'node'
        ? 'log to stderr (console.error, or a logger bound to process.stderr), never console.log: stdout is the protocol'
        : 'write logs to stderr, never to stdout: stdout is the protocol';
  return { cause: `the server writes text that is not JSON-RPC on stdout: ${where}`, observed, sdk: null, fix };
}
