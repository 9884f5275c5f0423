/**
 * How the drill client picks its era (harness/shared/era-select.ts), against a raw JSON-RPC
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
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Answers initialize, tools/list (which the drill client sends as every client does) and tools/call like a 2025 server; server/discover as RAW_DISCOVER says.
 * `locked`, `locked-reprobe`: a dual-era server that starts reading RAW_DELAY ms late (a Python
 * server still importing) and, like the Python SDK, locks the connection to the era of its first
 * distinctive message: after server/discover, initialize gets -32022 naming 2026-07-28.
 * `locked-reprobe` never answers the first server/discover (its handler was lost), only a second.
 */
const RAW_SERVER = `
const mode = process.env.RAW_DISCOVER;
const delay = Number(process.env.RAW_DELAY ?? 0);
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let buf = '';
let era = null;
let discovers = 0;
let held = null;
const modernResult = { resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } };
function handle(m) {
  if (m.method === 'server/discover') {
    if (mode === 'duplicate' || mode === 'duplicate-first') {
      era = 'started';
      if (mode === 'duplicate-first') return (held = m);
      return send({ id: m.id, result: modernResult });
    }
    if (mode === 'locked' || mode === 'locked-reprobe') {
      era = era ?? 'modern';
      if (mode === 'locked-reprobe' && discovers++ === 0) return;
      return send({ id: m.id, result: modernResult });
    }
    if (mode === 'silent') return;
    if (mode === 'close') process.exit(0);
    if (mode === 'unsupported') send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-11-25'] } } });
    if (mode === 'old') send({ id: m.id, result: { resultType: 'complete', supportedVersions: ['2025-11-25'], capabilities: {} } });
    if (mode === 'bad-request') send({ id: m.id, error: { code: -32600, message: 'Invalid request' } });
    return;
  }
  if (m.method === 'initialize') {
    if (era === 'started') {
      send({ id: m.id, error: { code: 0, message: 'duplicate "initialize" received' } });
      if (held) send({ id: held.id, result: modernResult });
      return;
    }
    if (era === 'modern') return send({ id: m.id, error: { code: -32022, message: 'connection is serving the 2026-07-28 protocol', data: { supported: ['2026-07-28'] } } });
    era = 'legacy';
    send({ id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: { subscribe: true } }, serverInfo: { name: 'raw', version: '1' } } });
  }
  else if (m.method === 'resources/subscribe' || m.method === 'ping') send({ id: m.id, result: {} });
  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [] } });
  else if (m.method === 'tools/call') send({ id: m.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });
}
function serve() {
  process.stdin.on('data', (c) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      handle(m);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
if (delay > 0) setTimeout(serve, delay); else serve();
`;

function scenario(dir: string, id: string, discover: string, extra: ScenarioParts = {}, delayMs = 0, discoverMs = 300) {
  const script = join(dir, 'raw-server.cjs');
  writeFileSync(script, RAW_SERVER);
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: { command: 'node', args: [script], env: { RAW_DISCOVER: discover, RAW_DELAY: `${delayMs}` } },
      target: { call: 'echo' },
      points: ['idle'],
      modes: ['crash'],
      timeouts: { discover: discoverMs, handshake: 10000 },
      expect: { 'exit-on-eof': { deadline: 1000 }, 'no-survivors': { grace: 500 } },
      ...extra,
    }),
    dir,
    `${id}.yaml`,
  );
}

/** The dual-era SDK 2 server answers the probe: a resources/subscribe step cannot apply in the era it gets. */
function modernScenario(dir: string) {
  const yaml = scenarioYaml({
    id: 'subscribe-in-2026',
    subject: { command: 'node', args: [join(packageRoot(), 'dist/fake-servers/sdk2/dual-era.js')] },
    setup: [{ subscribe: 'file:///data.txt' }],
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle'],
    modes: ['crash'],
  });
  return scenarioFrom(yaml, dir, 'subscribe-in-2026.yaml');
}

describe('the era of a drill', () => {
  let drills: DrillResult[] = [];
  let evidence: DrillEvidence[] = [];
  const byId = (id: string) => drills.find((d) => d.scenario === id)!;
  const eventsFor = (id: string) => evidence.find((e) => e.meta.scenario === id)!;

  it('auto falls back to initialize on any error or a timeout, not on one error code', async () => {
    const dir = tempDir();
    const run = await runPlan(
      planRun([
        scenario(dir, 'silent', 'silent'),
        scenario(dir, 'unsupported', 'unsupported'),
        scenario(dir, 'bad-request', 'bad-request'),
        scenario(dir, 'old', 'old'),
        scenario(dir, 'closes', 'close'),
        scenario(dir, 'pinned-modern', 'unsupported', { protocol: '2026-07-28' }),
        scenario(dir, 'pinned-legacy', 'silent', { protocol: '2025-11-25' }),
        scenario(dir, 'listen-in-2025', 'unsupported', { setup: [{ listen: { 'tools-list-changed': true } }] }),
        scenario(dir, 'subscribe-in-2025', 'unsupported', { setup: [{ subscribe: 'file:///data.txt' }] }),
        modernScenario(dir),
      ]),
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

  it('the era never depends on how fast the server starts: a late answer counts, a -32022 for the modern era probes again', async () => {
    const dir = tempDir();
    // The slow ones start reading 1500 ms after their start, so their probe's 300 ms timeout has always passed.
    const run = await runPlan(
      planRun([
        scenario(dir, 'locked-fast', 'locked', {}, 0, 8000),
        scenario(dir, 'locked-slow', 'locked', {}, 1500),
        scenario(dir, 'locked-reprobe', 'locked-reprobe', {}, 1500),
        scenario(dir, 'silent-slow', 'silent', {}, 1500),
        scenario(dir, 'bad-request-slow', 'bad-request', {}, 1500),
        scenario(dir, 'closes-slow', 'close', {}, 1500),
        scenario(dir, 'duplicate-slow', 'duplicate', {}, 1500),
        scenario(dir, 'duplicate-first-slow', 'duplicate-first', {}, 1500),
      ]),
      { concurrency: 3, containTermWaitMs: 300 },
    );
    const slow = (id: string) => run.results.drills.find((d) => d.scenario === id)!;
    for (const id of ['locked-fast', 'locked-slow', 'locked-reprobe', 'silent-slow', 'bad-request-slow', 'duplicate-slow', 'duplicate-first-slow']) {
      expect(slow(id).verdict, `${id}: ${slow(id).reason}`).toBe('pass');
    }
    expect(slow('locked-fast').era).toEqual({ era: '2026-07-28', chosenBy: 'probed', fallbackReason: null });
    expect(slow('locked-slow').era).toEqual({ era: '2026-07-28', chosenBy: 'probed-late', fallbackReason: null });
    expect(slow('locked-slow').incident.protocol).toBe(
      '2026-07-28, probed (server/discover answered after its timeout; the initialize sent meanwhile was not used)',
    );
    expect(slow('locked-reprobe').era).toEqual({ era: '2026-07-28', chosenBy: 're-probed', fallbackReason: null });
    // A server whose probe started the session refuses the initialize sent meanwhile; its answer to the probe decides, whichever comes first.
    expect(slow('duplicate-slow').era).toEqual({ era: '2026-07-28', chosenBy: 'probed-late', fallbackReason: null });
    expect(slow('duplicate-first-slow').era).toEqual({ era: '2026-07-28', chosenBy: 'probed-late', fallbackReason: null });
    const reprobe = run.evidence.find((e) => e.meta.scenario === 'locked-reprobe')!;
    const methods = eventsOf(reprobe, 'rpc-out').map((e) => (e.message as { method?: string }).method);
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'server/discover']);
    expect(eventsOf(reprobe, 'era-probe').map((e) => e.outcome)).toEqual(['timeout', 'error', 'answered']);
    // A server that never answers still falls back, and one that answers late with an error says so.
    expect(slow('silent-slow').era).toEqual({ era: '2025-11-25', chosenBy: 'fell-back', fallbackReason: 'server/discover: no answer within 300 ms' });
    expect(slow('bad-request-slow').era).toEqual({
      era: '2025-11-25',
      chosenBy: 'fell-back',
      fallbackReason: 'server/discover: no answer within 300 ms; then MCP error -32600: Invalid request',
    });
    expect(slow('closes-slow').verdict).toBe('error');
    expect(slow('closes-slow').reason).toMatch(
      /the server closed the connection on the server\/discover probe, so initialize could not follow .*; pin protocol: 2025-11-25/,
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
