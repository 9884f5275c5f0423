/**
 * An exit is judged by its cause. A server that exits with an error before it served one request
 * tested its handshake's failure, not its shutdown (rmcp in the 2026-07-28 era: `serve()` still
 * waits for its first real request, and EOF makes it fail: evidence/serving.ts). That is no exit
 * on EOF. Pure: evidence in.
 */
import { describe, expect, it } from 'vitest';
import { exitOnEof } from '../../harness/checks/exit-on-eof/check.js';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder } from './evidence-builder.js';

const RMCP_LINE = 'Error: ConnectionClosed("initialize request")';

function lostAt1200(): EvidenceBuilder {
  return new EvidenceBuilder({ mode: 'crash' }).start(1000).spawned(1010).handshake(1100, 'rmcp-waits-for-signal', '1.0.0', '2026-07-28');
}

describe('an error exit before serving', () => {
  it('fails, says so and quotes its stderr line', () => {
    const ev = lostAt1200()
      .answered(1110, 'server/discover')
      .answered(1120, 'ping')
      .answered(1130, 'ping')
      .pointReached(1200)
      .clientLost(1200)
      .stderr(1214, `${RMCP_LINE}\n`)
      .serverExit(1215, { code: 1 })
      .build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(
      `the server exited with an error before serving (code 1, 15 ms after losing its client): it had answered no request but server/discover and ping; stderr: ${JSON.stringify(RMCP_LINE)}`,
    );
    expect(result.data).toMatchObject({ beforeServing: true, stderrLine: RMCP_LINE, code: 1 });
    const diagnosis = judge(ev).incident.diagnosis?.find((d) => d.check === 'exit-on-eof');
    expect(diagnosis?.cause).toBe(
      `the server exited with an error before serving: it exited (code 1) 15 ms after losing its client, having answered no request but server/discover and ping; its stderr says ${JSON.stringify(RMCP_LINE)}. Its handshake failed at EOF; its shutdown after serving was never reached, so this drill cannot show it`,
    );
    expect(diagnosis?.observed[0]).toBe('requests before the loss: server/discover, ping, ping');
  });

  it('an unanswered tools/list, or one answered with an error, is no serving', () => {
    for (const answer of ['none', 'error'] as const) {
      const ev = lostAt1200().answered(1110, 'tools/list', 7, answer).pointReached(1200).clientLost(1200).serverExit(1215, { code: 1 }).build();
      expect(exitOnEof.run(ev).summary).toMatch(/^the server exited with an error before serving \(code 1, /);
    }
  });

  it('passes a clean exit before serving, and an error exit once a request was served', () => {
    const clean = lostAt1200().answered(1110, 'server/discover').pointReached(1200).clientLost(1200).serverExit(1215, { code: 0 }).build();
    expect(exitOnEof.run(clean).verdict).toBe('pass');
    const served = lostAt1200().answered(1110, 'tools/list').pointReached(1200).clientLost(1200).serverExit(1215, { code: 1 }).build();
    expect(exitOnEof.run(served)).toMatchObject({ verdict: 'pass', summary: 'the server exited 15 ms after losing its client (code 1)' });
  });

  it('counts only what was served before the loss', () => {
    const ev = lostAt1200().pointReached(1200).clientLost(1200).answered(1205, 'tools/list').serverExit(1215, { code: 1 }).build();
    expect(exitOnEof.run(ev).data).toMatchObject({ beforeServing: true });
  });
});
