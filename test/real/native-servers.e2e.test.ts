/**
 * Real MCP servers in other languages, published with native binaries, drilled through the real
 * CLI inside `unshare -n` (loopback only: they reach nothing outside), every drill's verdict and
 * check verdicts asserted exactly, and the SDK each is built on named from its binary:
 *
 * - nushell 0.115.1 (`nu --mcp`, Rust, rmcp 3.1.0 as the crate paths in the binary say), from the
 *   npm package @nushell/linux-x64. A plain evaluation passes everywhere. A builtin `sleep 30sec` in
 *   flight at EOF holds the process past the deadline: rmcp waits up to 5 s for a call in flight
 *   before it fires its token (fake-servers/rust/README.md), so it is still up at the snapshot
 *   after a crash (the harness's SIGTERM ends it) and gets the client's SIGTERM after a close. An external `^sleep 30` in flight
 *   runs in a session of its own and outlives the server's SIGTERM; `job spawn { ^sleep 300 }`
 *   leaves its job behind although nu exits at once. That drill's point is child-spawned: nu
 *   answers `job spawn` before its job thread has always started the external, so a close just
 *   after the answer could let nu exit before there was a job to leave (one fresh-clone run of
 *   .ci/run here saw no survivor; 32 drills at child-spawned here all left `sleep 300`).
 * - Azure MCP Server 2.0.5 (`azmcp server start`, C#, a .NET single-file bundle of 141 MB whose
 *   embedded deps.json names ModelContextProtocol 1.0.0), from @azure/mcp-linux-x64. Its EOF exit
 *   goes through the .NET host's shutdown: 1.0 to 3.1 s from EOF to exit measured here (10 runs,
 *   telemetry on and off), so its exit windows are 10 s, not the 2 s default that would make its
 *   verdicts a coin toss. The offline best-practices tool passes everywhere; subscription_list
 *   fails its authentication offline, and on the way MSAL's broker prints "No X display available.
 *   Running in headless mode." on stdout: stdout-clean fails after the response. In flight it is
 *   drilled after a crash only: the client is gone before the line and .NET drops the write.
 *   After a close the client still reads stdout, and whether the line comes before .NET's
 *   shutdown ends the call is a race inside the server: one CI run saw it fail, the others pass.
 *
 * The Go server (kubernetes-mcp-server, go-sdk v1.8.0) has its own file. Install: .ci/real-servers.sh.
 */
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../harness/config/index.js';
import type { RunResults } from '../../harness/results/types.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { verdictTable } from '../support/truth-table.js';
import { realBinary, realServersSkip } from './support/native-servers.js';
import { drillOffline } from './support/offline-run.js';

const FILE = 'test/real/native-servers.e2e.test.ts';
const skip = realServersSkip(FILE, ['nushell', 'azure-mcp']);

const NU = { command: realBinary('nushell'), args: ['--mcp', '-n'], env: { HOME: '{{tmp}}' }, cwd: '{{tmp}}' };
const AZ = { command: realBinary('azure-mcp'), args: ['server', 'start'], env: { HOME: '{{tmp}}', AZURE_MCP_COLLECT_TELEMETRY: 'false' }, cwd: '{{tmp}}' };
const AZ_WINDOWS = { timeouts: { 'close-wait': 10000, handshake: 60000 }, expect: { 'exit-on-eof': { deadline: 10000 } } };
const PRACTICES = { intent: 'general best practices', command: 'get_azure_bestpractices_get', parameters: { resource: 'general', action: 'all' } };

const SCENARIOS: Record<string, Omit<ScenarioInput, 'id'>> = {
  'nu-eval': { subject: NU, target: { call: 'evaluate', args: { input: '1 + 2' } }, points: ['idle', 'after-response'] },
  'nu-sleep': { subject: NU, target: { call: 'evaluate', args: { input: 'sleep 30sec; 1' } }, points: ['in-flight'], timeouts: { 'in-flight-delay': 500 } },
  'nu-external': { subject: NU, target: { call: 'evaluate', args: { input: '^sleep 30' } }, points: ['child-spawned'] },
  // At child-spawned, not after-response: the header says why.
  'nu-job': { subject: NU, target: { call: 'evaluate', args: { input: 'job spawn { ^sleep 300 }' } }, points: ['child-spawned'] },
  'az-practices': { subject: AZ, target: { call: 'get_azure_bestpractices', args: PRACTICES }, points: ['idle', 'after-response'], ...AZ_WINDOWS },
  'az-auth': { subject: AZ, target: { call: 'subscription_list', args: {} }, points: ['after-response'], ...AZ_WINDOWS },
  // In flight, after a crash only: after a close the client still reads stdout, and whether MSAL's
  // line comes before .NET's shutdown ends the call is a race inside the server (a CI run saw it).
  'az-auth-cut': { subject: AZ, target: { call: 'subscription_list', args: {} }, points: ['in-flight'], modes: ['crash'], ...AZ_WINDOWS },
};

type Row = Record<string, string>;
const row = (exit: string, survivors: string, stdout = 'pass'): Row => ({
  verdict: [exit, survivors, stdout].includes('fail') ? 'fail' : 'pass',
  'exit-on-eof': exit,
  'no-survivors': survivors,
  'stdout-clean': stdout,
});
const EXPECTED: Record<string, Row> = {};
for (const mode of ['crash', 'close']) {
  for (const point of ['idle', 'after-response']) EXPECTED[`nu-eval/${point}/${mode}`] = row('pass', 'pass');
  // The server itself is still up at the snapshot after a crash; after a close the client's SIGTERM ended it.
  EXPECTED[`nu-sleep/in-flight/${mode}`] = row('fail', mode === 'crash' ? 'fail' : 'pass');
  EXPECTED[`nu-external/child-spawned/${mode}`] = row('fail', 'fail');
  EXPECTED[`nu-job/child-spawned/${mode}`] = row('pass', 'fail');
  for (const point of ['idle', 'after-response']) EXPECTED[`az-practices/${point}/${mode}`] = row('pass', 'pass');
  if (mode === 'crash') EXPECTED[`az-auth-cut/in-flight/${mode}`] = row('pass', 'pass');
  EXPECTED[`az-auth/after-response/${mode}`] = row('pass', 'pass', 'fail');
}

describe.runIf(skip === null)('real servers in Rust and C#, published with native binaries', () => {
  let results: RunResults;

  beforeAll(async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    for (const [id, s] of Object.entries(SCENARIOS))
      writeFileSync(join(dir, `${id}.yaml`), scenarioYaml({ id, modes: ['crash', 'close'], ...s } as ScenarioInput));
    results = await drillOffline(dir, out, ['--reporter', 'json']);
  }, 300_000);

  it('gives exactly the measured verdicts', () => {
    expect(verdictTable(results.drills)).toEqual(EXPECTED);
  });

  const diagnosis = (key: string, check: string) => results.drills.find((d) => d.key === key)?.incident.diagnosis?.find((g) => g.check === check);
  const sdkLine = (key: string, check: string) => diagnosis(key, check)?.observed.find((o) => o.startsWith('SDK: '));

  it('names rmcp 3.1.0 from the nu binary, and states what rmcp does with a call in flight, with its fix', () => {
    const nu = realpathSync(realBinary('nushell'));
    expect(sdkLine('nu-sleep/in-flight/crash', 'exit-on-eof')).toMatch(
      new RegExp(
        `^SDK: a Rust program( rustc version [^;]+)?; serverInfo nushell-mcp-server 0\\.115\\.1; MCP SDK: rmcp 3\\.1\\.0 \\(crate path, ${nu.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`,
      ),
    );
    const sleep = diagnosis('nu-sleep/in-flight/crash', 'exit-on-eof')!;
    expect(sleep.sdk).toMatch(
      /^rmcp \(the Rust SDK\) 3\.1\.0: at stdin EOF, the service loop ends .*; a handler in flight: holds the server up to 5 s \(the drain\) before its token fires/,
    );
    expect(sleep.fix).toMatch(/^check the request's cancellation token in every long handler/);
    // The external command in a session of its own: the daemon's fix.
    expect(diagnosis('nu-job/child-spawned/crash', 'no-survivors')?.cause).toMatch(/in a session of its own/);
    expect(results.drills.find((d) => d.key === 'nu-job/child-spawned/crash')?.survivors.map((s) => s.cmdline)).toEqual([['/usr/bin/sleep', '300']]);
  });

  it('names ModelContextProtocol 1.0.0 from the azmcp bundle in the failing drill, and what it wrote on stdout', () => {
    const az = realpathSync(realBinary('azure-mcp'));
    for (const mode of ['crash', 'close']) {
      const key = `az-auth/after-response/${mode}`;
      expect(sdkLine(key, 'stdout-clean')).toBe(
        `SDK: a .NET program .NETCoreApp,Version=v10.0/linux-x64; serverInfo Azure MCP Server 2.0.5; MCP SDK: ModelContextProtocol 1.0.0 (the bundle's azmcp.deps.json, ${az}), ModelContextProtocol.AspNetCore 1.0.0 (the bundle's azmcp.deps.json, ${az}), ModelContextProtocol.Core 1.0.0 (the bundle's azmcp.deps.json, ${az})`,
      );
      expect(diagnosis(key, 'stdout-clean')?.observed).toContain('the first: "No X display available. Running in headless mode."');
    }
  });
});
