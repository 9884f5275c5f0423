import { eventsOf, type DrillEvidence } from '../evidence/types.js';
import type { Check, CheckResult } from './types.js';

/**
 * stdout-clean: every line the server wrote to stdout is a JSON-RPC message. The MCP spec says
 * a server must not write anything else there (stdio transport); logs belong on stderr.
 */
export const stdoutClean: Check = {
  id: 'stdout-clean',
  applies: (evidence) => evidence.meta.expect.stdoutClean,
  run(evidence: DrillEvidence): CheckResult {
    const id = 'stdout-clean' as const;
    const noise = eventsOf(evidence, 'stdout-noise');
    const messages = eventsOf(evidence, 'rpc-in').length;
    if (noise.length === 0) {
      return { id, verdict: 'pass', summary: `all ${messages} stdout lines were JSON-RPC messages`, data: { messages, noise: 0 } };
    }
    const first = JSON.stringify(noise[0].line.slice(0, 120));
    const noun = noise.length === 1 ? 'line' : 'lines';
    return {
      id,
      verdict: 'fail',
      summary: `${noise.length} stdout ${noun} not JSON-RPC, first: ${first}`,
      data: { messages, noise: noise.length, lines: noise.slice(0, 10).map((event) => event.line.slice(0, 500)) },
    };
  },
};
