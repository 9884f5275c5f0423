/**
 * The SDK named from the program in a failing drill's diagnosis, on the fakes built on the real
 * SDKs, through the real CLI: a Go binary's diagnosis names github.com/modelcontextprotocol/go-sdk
 * (or mcp-go) and the version its build info holds, states what that SDK does in the case at hand
 * (a call in flight at EOF, something else keeping the process up, a child left behind) with its
 * issue, and gives that SDK's fix; a JVM's names io.modelcontextprotocol.sdk and the jar's version.
 * The other way, the well-behaved servers get none. Judging the saved logs again gives the same.
 * (.NET and Rust: the published servers in test/real.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import type { Diagnosis, DrillResult, RunResults } from '../../harness/results/types.js';
import { goFake, goFakesBinary, goFakesSuite } from '../go-sdk/support/go-fakes.js';
import { javaFakeArgs, javaFakesSuite } from '../java-sdk/support/java-fakes.js';
import { runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import type { ScenarioInput } from '../../harness/config/index.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FILE = 'test/results/diagnosis-sdks.e2e.test.ts';
const go = goFakesSuite(FILE);
const java = javaFakesSuite(FILE);
const GO_SDK = 'github.com/modelcontextprotocol/go-sdk';
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const WINDOWS = {
  timeouts: { 'close-wait': 1000, point: 10000, handshake: 30000 },
  expect: { 'exit-on-eof': { deadline: 2000 }, 'no-survivors': { grace: 1500 }, 'stdout-clean': true },
};

async function drill(scenarios: Record<string, Omit<ScenarioInput, 'id'>>): Promise<{ drills: Map<string, DrillResult>; out: string }> {
  const dir = tempDir('cd-diagnosis-sdks-');
  for (const [id, s] of Object.entries(scenarios))
    writeFileSync(join(dir, `${id}.yaml`), scenarioYaml({ id, modes: ['crash'], ...WINDOWS, ...s } as ScenarioInput));
  const out = join(dir, 'out');
  const run = await runCli(['run', dir, '--out', out, '--reporter', 'json']);
  expect(run.code, run.stderr).toBe(1);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  expect(markedProcesses(results.runId)).toEqual([]);
  for (const d of results.drills)
    expect(judge(readEvidenceLog(join(out, 'evidence', `${d.id}.jsonl`))).incident.diagnosis, d.key).toEqual(d.incident.diagnosis);
  return { drills: new Map(results.drills.map((d) => [d.key, d])), out };
}

const of = (d: DrillResult | undefined, check: string): Diagnosis => {
  const found = d?.incident.diagnosis?.find((g) => g.check === check);
  if (!found) throw new Error(`no ${check} diagnosis in ${d?.key}`);
  return found;
};

describe.skipIf(!go)('a Go binary: the diagnosis names go-sdk or mcp-go and the version from its build info', () => {
  it('states the SDK behaviour and fix for the case at hand; the well-behaved server gets none', async () => {
    const { drills } = await drill({
      'v161-slow': { subject: goFake('go-sdk-v1.6.1', 'slow-tool'), target: { call: 'slow', args: { ms: 30000 } }, points: ['in-flight'] },
      'v180-goroutine': {
        subject: goFake('go-sdk-v1.8.0', 'goroutine-keeps-alive'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
      },
      'v180-leaks': { subject: goFake('go-sdk-v1.8.0', 'leaks-child'), target: { call: 'spawn-helper' }, points: ['after-response'] },
      'mcpgo-goroutine': {
        subject: goFake('mcp-go-v1.2.1', 'goroutine-keeps-alive'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
      },
      'v180-well': {
        subject: goFake('go-sdk-v1.8.0', 'well-behaved'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle', 'in-flight'],
      },
    });

    // v1.6.1 with a call in flight: the SDK before v1.7.0 does not cancel it; upgrade.
    const slow = of(drills.get('v161-slow/in-flight/crash'), 'exit-on-eof');
    expect(slow.observed.find((o) => o.startsWith('SDK: '))).toMatch(
      new RegExp(
        `^SDK: a Go program go1\\.\\d+\\.\\d+; serverInfo go-sdk-slow-tool 1\\.0\\.0; MCP SDK: ${esc(GO_SDK)} v1\\.6\\.1 \\(Go build info, ${esc(goFakesBinary('go-sdk-v1.6.1'))}\\)$`,
      ),
    );
    expect(slow.observed).toContain('a call was in flight when the client was lost (written, not answered)');
    expect(slow.sdk).toBe(
      'go-sdk v1.6.1: at stdin EOF, Server.Run returns nil once the connection is idle: no call in flight and no handler running; a handler in flight: not cancelled at EOF before v1.7.0: Run waits until the handler returns on its own, and its response is dropped (go-sdk #1061)',
    );
    expect(slow.fix).toMatch(/^upgrade go-sdk to v1\.7\.0 or later, which cancels a call in flight at EOF, and bind the handler's blocking work to its ctx/);

    // v1.8.0, nothing in flight, main waiting on a goroutine.
    const goroutine = of(drills.get('v180-goroutine/idle/crash'), 'exit-on-eof');
    expect(goroutine.observed.find((o) => o.startsWith('SDK: '))).toMatch(new RegExp(`MCP SDK: ${esc(GO_SDK)} v1\\.8\\.0 \\(Go build info, `));
    expect(goroutine.cause).toMatch(
      /^the server kept running after EOF with nothing in flight: go-sdk's run call returns at EOF, so something of the program's own/,
    );
    expect(goroutine.sdk).toBe('go-sdk v1.8.0: at stdin EOF, Server.Run returns nil once the connection is idle: no call in flight and no handler running');
    expect(goroutine.fix).toBe(
      'return from main once Server.Run returns: do not wait on goroutines (a sync.WaitGroup, a channel) without a deadline, and stop the ones it started',
    );

    // A child left behind: go-sdk's fix for children.
    expect(of(drills.get('v180-leaks/after-response/crash'), 'no-survivors').fix).toBe(
      'the server exits without ending its child: start children with exec.CommandContext(ctx, ...) bound to the call, or keep them and kill them when Server.Run returns',
    );

    // mcp-go: its own module and version, and its SIGTERM trap.
    const mcpgo = of(drills.get('mcpgo-goroutine/idle/crash'), 'exit-on-eof');
    expect(mcpgo.observed.find((o) => o.startsWith('SDK: '))).toMatch(/MCP SDK: github\.com\/mark3labs\/mcp-go v1\.2\.1 \(Go build info, /);
    expect(mcpgo.sdk).toMatch(
      /^mcp-go v1\.2\.1: at stdin EOF, StdioServer\.Listen cancels every request's context .* once it returned no SIGTERM ends the process$/,
    );
    expect(mcpgo.fix).toMatch(/^return from main once ServeStdio returns: ServeStdio keeps SIGTERM caught for good/);

    for (const key of ['v180-well/idle/crash', 'v180-well/in-flight/crash']) {
      expect(drills.get(key)?.verdict, key).toBe('pass');
      expect(drills.get(key)?.incident.diagnosis ?? [], key).toEqual([]);
    }
  }, 240_000);
});

describe.skipIf(!java)('a JVM program: the diagnosis names the Java SDK and its version from the jars', () => {
  it('a thread that keeps the JVM up: the Java SDK row and its fix; the well-behaved server gets none', async () => {
    const jar = (b: 'thread-keeps-alive' | 'well-behaved') => ({ command: 'java', args: javaFakeArgs(b) });
    const { drills } = await drill({
      thread: { subject: jar('thread-keeps-alive'), target: { call: 'echo', args: { text: 'hi' } }, points: ['idle'] },
      well: { subject: jar('well-behaved'), target: { call: 'echo', args: { text: 'hi' } }, points: ['idle'] },
    });
    const thread = of(drills.get('thread/idle/crash'), 'exit-on-eof');
    expect(thread.observed.find((o) => o.startsWith('SDK: '))).toMatch(
      /MCP SDK: io\.modelcontextprotocol\.sdk:mcp 2\.2\.0 \(pom\.properties, \S+java-sdk-fakes\.jar; META-INF\/maven\/io\.modelcontextprotocol\.sdk\/mcp\/pom\.properties\)/,
    );
    expect(thread.sdk).toMatch(
      /^the Java SDK 2\.2\.0: at stdin EOF, the stdin thread ends and calls session\.close\(\), with no public hook to act on it; the JVM exits when its last non-daemon thread ends \(java-sdk #936\)$/,
    );
    expect(thread.fix).toMatch(/^a non-daemon thread keeps the JVM up after the transport closed: make it a daemon \(Thread\.setDaemon\(true\)\)/);
    expect(drills.get('well/idle/crash')?.verdict).toBe('pass');
  }, 180_000);
});
