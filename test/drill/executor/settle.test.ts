/**
 * `idle` and `after-response` wait for a ping round trip (harness/shared/client-session.ts):
 * a server that writes in reply to its last message (fixtures/eager-server.mjs: a notification
 * on the turn after `notifications/initialized` and after each tool result) has written it
 * before the kill, with either client. Without the round trip the in-process client kills
 * within a millisecond of the event, and that write met EPIPE (exit class `crash`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClientKind } from '../../../harness/drill/client/drill-client.js';
import { planRun } from '../../../harness/plan/plan.js';
import { runPlan } from '../../../harness/run/run-plan.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';

describe('the ping round trip before a kill where nothing is pending', () => {
  for (const [client, blockMs] of [
    ['inprocess', 0],
    ['process', 0],
    // A server busy when the client's next messages arrive reads notifications/initialized and
    // the first ping in one turn: it answers the ping before it writes its reply (on the next
    // turn). The second round trip still lets that reply out before the kill.
    ['inprocess', 150],
  ] as [ClientKind, number][]) {
    it(`lets a server's reply to its last message out before the kill (${client} client${blockMs ? `, server busy ${blockMs} ms after initialize` : ''})`, async () => {
      const yaml = scenarioYaml({
        id: `eager-${client}`,
        subject: { command: 'node', args: [join(packageRoot(), 'test/drill/fixtures/eager-server.mjs')], env: { EAGER_BLOCK_MS: `${blockMs}` } },
        target: { call: 'echo' },
        points: ['idle', 'after-response'],
        modes: ['crash'],
        expect: { 'exit-on-eof': { deadline: 1000 }, 'no-survivors': { grace: 500 } },
      });
      const { results, evidence } = await runPlan(planRun([scenarioFrom(yaml, tempDir(), 'eager.yaml')]), { concurrency: 1, client, containTermWaitMs: 500 });
      expect(results.drills.map((d) => [d.point, d.verdict, d.exit?.class, d.exit?.code])).toEqual([
        ['idle', 'pass', 'clean', 0],
        ['after-response', 'pass', 'clean', 0],
      ]);
      for (const ev of evidence) {
        const kill = ev.events.findIndex((e) => e.type === 'kill');
        const before = ev.events.slice(0, kill);
        const method = (e: (typeof before)[number]) => (e as { message?: { method?: string } }).message?.method;
        // The ping went out and its answer came back, and so did the server's notification.
        const ping = before.find((e) => e.type === 'rpc-out' && method(e) === 'ping') as { message: { id: unknown } } | undefined;
        expect(ping, ev.meta.drillId).toBeDefined();
        expect(before.some((e) => e.type === 'rpc-in' && (e as { message?: { id?: unknown } }).message?.id === ping!.message.id)).toBe(true);
        expect(before.filter((e) => e.type === 'rpc-in' && method(e) === 'notifications/tools/list_changed').length).toBeGreaterThan(0);
      }
    });
  }
});
