/**
 * How the drill client picks its era (harness/client/era-select.ts), against a raw JSON-RPC
 * subject whose answer to server/discover is set per drill: the fallback to initialize follows
 * any error and a timeout alike (never one error code), a pinned era never falls back, and
 * setup steps of the other era say they cannot apply. Real client, real server processes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DrillEvidence } from '../../harness/evidence/types.js';
import { eventsOf, firstOf } from '../../harness/evidence/types.js';
import type { DrillResult } from '../../harness/results/types.js';
import { runScenarios } from '../../harness/run/run-drills.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, tempDir } from '../support/scenarios.js';

/** Answers initialize and tools/call like a 2025 server; server/discover as RAW_DISCOVER says. */
const RAW_SERVER = `
const mode = process.env.RAW_DISCOVER;
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let buf = '';
process.stdin.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (m.method === 'server/discover') {
      if (mode === 'silent') continue;
      if (mode === 'close') process.exit(0);
      if (mode === 'unsupported') send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } });
      if (mode === 'old') send({ id: m.id, result: { resultType: 'complete', supportedVersions: ['2025-11-25'], capabilities: {} } });
      if (mode === 'bad-request') send({ id: m.id, error: { code: -32600, message: 'Invalid request' } });
      continue;
    }
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: { subscribe: true } }, serverInfo: { name: 'raw', version: '1' } } });
    else if (m.method === 'resources/subscribe') send({ id: m.id, result: {} });
    else if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text: 'ok' }] } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

function scenario(dir: string, id: string, discover: string, extra: string[] = []) {
  const script = join(dir, 'raw-server.cjs');
  writeFileSync(script, RAW_SERVER);
  return scenarioFrom(
    [
      `id: ${id}`,
      'subject:',
      '  command: node',
      `  args: [${JSON.stringify(script)}]`,
      `  env: { RAW_DISCOVER: ${discover} }`,
      'target: { call: echo }',
      'points: [idle]',
      'modes: [crash]',
      'timeouts: { discover: 300, handshake: 10000 }',
      'expect: { exit-on-eof: { deadline: 1000 }, no-survivors: { grace: 500 } }',
      ...extra,
    ].join('\n'),
    dir,
    `${id}.yaml`,
  );
}

/** The dual-era SDK 2 server answers the probe: a resources/subscribe step cannot apply in the era it gets. */
function modernScenario(dir: string) {
  const yaml = [
    'id: subscribe-in-2026',
    'subject:',
    '  command: node',
    `  args: [${JSON.stringify(join(packageRoot(), 'dist/fake-servers/sdk2/dual-era.js'))}]`,
    'setup:',
    '  - subscribe: file:///data.txt',
    'target: { call: echo, args: { text: hi } }',
    'points: [idle]',
    'modes: [crash]',
  ].join('\n');
  return scenarioFrom(yaml, dir, 'subscribe-in-2026.yaml');
}

describe('the era of a drill', () => {
  let drills: DrillResult[] = [];
  let evidence: DrillEvidence[] = [];
  const byId = (id: string) => drills.find((d) => d.scenario === id)!;
  const eventsFor = (id: string) => evidence.find((e) => e.meta.scenario === id)!;

  it('auto falls back to initialize on any error or a timeout, not on one error code', async () => {
    const dir = tempDir();
    const run = await runScenarios(
      [
        scenario(dir, 'silent', 'silent'),
        scenario(dir, 'unsupported', 'unsupported'),
        scenario(dir, 'bad-request', 'bad-request'),
        scenario(dir, 'old', 'old'),
        scenario(dir, 'closes', 'close'),
        scenario(dir, 'pinned-modern', 'unsupported', ['protocol: 2026-07-28']),
        scenario(dir, 'pinned-legacy', 'silent', ['protocol: 2025-11-25']),
        scenario(dir, 'listen-in-2025', 'unsupported', ['setup:', '  - listen: { tools-list-changed: true }']),
        scenario(dir, 'subscribe-in-2025', 'unsupported', ['setup:', '  - subscribe: file:///data.txt']),
        modernScenario(dir),
      ],
      { concurrency: 3, containTermWaitMs: 300 },
    );
    drills = run.results.drills;
    evidence = run.evidence;
    for (const id of ['silent', 'unsupported', 'bad-request', 'old']) {
      expect(byId(id).verdict, `${id}: ${byId(id).reason}`).toBe('pass');
      expect(byId(id).era).toMatchObject({ era: '2025-11-25', chosenBy: 'fell-back' });
    }
    expect(byId('silent').era!.fallbackReason).toBe('server/discover: no answer within 300 ms');
    expect(firstOf(eventsFor('silent'), 'era-probe')).toMatchObject({ outcome: 'timeout' });
    expect(byId('unsupported').era!.fallbackReason).toBe('MCP error -32022: Unsupported protocol version');
    expect(byId('bad-request').era!.fallbackReason).toBe('MCP error -32600: Invalid request');
    expect(byId('old').era!.fallbackReason).toBe('server/discover offered 2025-11-25, not 2026-07-28');
    expect(byId('old').incident.protocol).toBe(
      '2025-11-25, fell back to initialize after server/discover failed (server/discover offered 2025-11-25, not 2026-07-28)',
    );
  }, 120_000);

  it('a server that dies on the probe cannot be drilled in auto, and the error says to pin the old era', () => {
    const closes = byId('closes');
    expect(closes.verdict).toBe('error');
    expect(closes.reason).toMatch(
      /the server closed the connection on the server\/discover probe, so initialize could not follow .*; pin protocol: 2025-11-25 for this server/,
    );
  });

  it('a pinned era never probes and never falls back', () => {
    expect(byId('pinned-modern').verdict).toBe('error');
    expect(byId('pinned-modern').reason).toBe(
      'handshake: handshake-error: protocol 2026-07-28 is pinned and server/discover failed: MCP error -32022: Unsupported protocol version',
    );
    const legacy = byId('pinned-legacy');
    expect(legacy.verdict).toBe('pass');
    expect(legacy.era).toEqual({ era: '2025-11-25', chosenBy: 'pinned', fallbackReason: null });
    const methods = eventsOf(eventsFor('pinned-legacy'), 'rpc-out').map((e) => (e.message as { method?: string }).method);
    expect(methods[0]).toBe('initialize');
    expect(methods).not.toContain('server/discover');
  });

  it('a setup step of the other era says it cannot apply; one of this era runs', () => {
    expect(byId('listen-in-2025').verdict).toBe('error');
    expect(byId('listen-in-2025').reason).toBe(
      'setup: setup step 0 (subscriptions/listen) failed: cannot apply in 2025-11-25: subscriptions/listen exists only in 2026-07-28; write the step as subscribe: <uri> (resources/subscribe), or pin protocol: 2026-07-28',
    );
    expect(byId('subscribe-in-2025').verdict).toBe('pass');
    const sub = eventsOf(eventsFor('subscribe-in-2025'), 'rpc-out').find((e) => (e.message as { method?: string }).method === 'resources/subscribe');
    expect(sub?.message).toMatchObject({ params: { uri: 'file:///data.txt' } });
    expect(byId('subscribe-in-2026').reason).toBe(
      'setup: setup step 0 (resources/subscribe) failed: cannot apply in 2026-07-28: resources/subscribe was removed from this revision (subscriptions/listen replaced it); write the step as listen: { resource-subscriptions: [...] }, or pin protocol: 2025-11-25',
    );
  });
});
