/**
 * silent-after-cancel on real drills, both ways, with no clock in the verdict: a 30-second call
 * that the cancel ends with -32800 fails however soon its answer is read; an answer the server
 * wrote before the cancel went out (already in the pipe, unread, when the client cancels) passes,
 * because the client reads it before it writes the cancel. The two raw servers are
 * fake-servers/perl/answers-cancelled.pl and answers-then-blocks.pl.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDrills } from '../../harness/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../support/scenarios.js';

const WINDOW = 800;

async function cancelDrill(server: 'answers-cancelled' | 'answers-then-blocks', point: 'in-flight' | 'child-spawned') {
  const scenario = scenarioFrom(
    scenarioYaml({
      id: `cancel-${server}`,
      subject: { command: 'perl', args: [join(packageRoot(), `fake-servers/perl/${server}.pl`)], name: server },
      protocol: '2025-11-25',
      target: { call: 'slow' },
      points: [point],
      modes: ['cancel'],
      timeouts: { point: 10000, handshake: 20000 },
      expect: { 'silent-after-cancel': true, 'stops-after-cancel': { deadline: WINDOW }, 'alive-after-cancel': { deadline: WINDOW } },
    }),
  );
  const { results } = await runDrills({ scenarios: [scenario] });
  expect(results.drills).toHaveLength(1);
  const [drill] = results.drills;
  const checks = Object.fromEntries(drill.checks.map((c) => [c.id, c]));
  return { drill, checks, verdicts: Object.fromEntries(drill.checks.map((c) => [c.id, c.verdict])) };
}

describe('silent-after-cancel judges what caused an answer', () => {
  it('fails a 30-second call answered with -32800 as soon as the cancel arrives', async () => {
    const { drill, checks, verdicts } = await cancelDrill('answers-cancelled', 'in-flight');
    expect(verdicts).toEqual({ 'stdout-clean': 'pass', 'silent-after-cancel': 'fail', 'stops-after-cancel': 'pass', 'alive-after-cancel': 'pass' });
    expect(drill.verdict).toBe('fail');
    const silent = checks['silent-after-cancel'];
    const id = JSON.stringify((silent.data as { requestId: unknown }).requestId);
    expect(silent.summary).toMatch(
      new RegExp(
        `^1 message for the cancelled request ${id} after the cancel, the first \\d+ ms after: an error response \\(-32800: Request cancelled\\), a cancellation \\(the error code -32800 \\(request cancelled\\)\\): the cancel caused it$`,
      ),
    );
    expect(silent.data).toMatchObject({ crossed: 0, ownEnd: [], outlastsCancel: false });
  });

  it('passes an answer that was in the pipe, unread, when the cancel went out', async () => {
    const { checks, verdicts } = await cancelDrill('answers-then-blocks', 'child-spawned');
    // The server never reads the cancel or the follow-up: it waits for its child.
    expect(verdicts).toEqual({ 'stdout-clean': 'pass', 'silent-after-cancel': 'pass', 'stops-after-cancel': 'fail', 'alive-after-cancel': 'fail' });
    const silent = checks['silent-after-cancel'];
    const { requestId } = silent.data as { requestId: string | number };
    expect(silent.summary).toBe(
      `nothing the cancel caused for the cancelled request ${JSON.stringify(requestId)} (1 read before the cancel was written, which crossed it)`,
    );
    // The drain read exactly the answer's line: it was still unread when the cancel was written.
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(requestId)},"result":{"content":[{"type":"text","text":"done"}]}}\n`;
    expect(silent.data).toMatchObject({ crossed: 1, drained: { bytes: Buffer.byteLength(line), complete: true }, ownEnd: [], after: [] });
  });
});
