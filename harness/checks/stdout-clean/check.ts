import { eventsOf, type DrillEvidence } from '../../evidence/types.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { stdoutCause } from './diagnosis.js';
import { STDOUT_ONLY_MESSAGES } from '../../requirements/catalog.js';

export interface StdoutCleanData {
  messages: number;
  /** Every noise line the server wrote, the ones the record left out included. */
  noise: number;
  /** Noise lines the record left out (it keeps a head and a tail). */
  dropped?: number;
  /** The first ten noise lines, 500 characters each at most. */
  lines?: string[];
}

/**
 * stdout-clean: every line the server wrote to stdout is a JSON-RPC message. The MCP spec says
 * a server must not write anything else there (stdio transport); logs belong on stderr.
 */
export const stdoutClean = defineCheck({
  id: 'stdout-clean',
  requirement: STDOUT_ONLY_MESSAGES,
  matcher: { name: 'toKeepStdoutClean', expects: 'write only JSON-RPC on stdout' },
  applies: (evidence) => evidence.meta.expect.stdoutClean,
  withoutLoss: true,
  run(evidence: DrillEvidence): Judgement<StdoutCleanData> {
    const noise = eventsOf(evidence, 'stdout-noise');
    const messages = eventsOf(evidence, 'rpc-in').length;
    // The record keeps a head and a tail of the noise (harness/drill/executor/record-cap.ts); the cut says how many lines it left out.
    const dropped = eventsOf(evidence, 'record-cut')
      .filter((cut) => cut.stream === 'stdout')
      .reduce((sum, cut) => sum + cut.droppedLines, 0);
    const total = noise.length + dropped;
    if (total === 0) {
      return { verdict: 'pass', summary: `all ${messages} stdout lines were JSON-RPC messages`, data: { messages, noise: 0 } };
    }
    const first = JSON.stringify(noise[0].line.slice(0, 120));
    const noun = total === 1 ? 'line' : 'lines';
    const kept = dropped > 0 ? ` (${noise.length.toLocaleString('en-US')} kept in the record)` : '';
    return {
      verdict: 'fail',
      summary: `${total.toLocaleString('en-US')} stdout ${noun} not JSON-RPC${kept}, first: ${first}`,
      data: { messages, noise: total, ...(dropped > 0 ? { dropped } : {}), lines: noise.slice(0, 10).map((event) => event.line.slice(0, 500)) },
    };
  },
  // What to change (per runtime) is the drill's diagnosis (harness/checks/stdout-clean/diagnosis.ts).
  details(outcome) {
    const lines = dataOf(outcome).lines ?? [];
    return lines.length > 0 ? [{ label: 'stdout lines that are not JSON-RPC', items: lines.map((line) => JSON.stringify(line.slice(0, 200))) }] : [];
  },
  diagnose: (_outcome, evidence) => stdoutCause(evidence),
});
