/**
 * `orphans` and `contain` as an ordinary user (uid 65534, test/support/unprivileged.ts), with a
 * real orphan of that user and one of root's beside it: `orphans` lists its own user's orphan,
 * reports root's as unreadable instead of crashing on it (and runs with a state folder in tmp it
 * cannot write), and a client configuration it cannot read is one line while the others match; `contain` refuses root's process without --force and contains its own. As
 * root, `contain --all-orphans` refuses the ordinary user's orphan without --force and contains
 * root's. The fixtures are copied
 * to a world-readable folder, since the checkout may be below a private home.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainResult } from '../../harness/live-machine/contain.js';
import type { OrphanReport } from '../../harness/live-machine/find-orphans.js';
import { identify, type ProcIdentity } from '../../harness/observe/index.js';
import { registryPath } from '../../harness/registry/registry.js';
import { runCli } from '../support/cli.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';
import { NOBODY, nodeFor, unprivileged } from '../support/unprivileged.js';
import { alive, cleanup, env, FIXTURES, killClient, startPair } from './helpers.js';
import { describeStep } from '../../harness/containment/step.js';

const u = unprivileged();
const isRoot = process.getuid?.() === 0;
const reason = !u.available
  ? u.reason
  : !isRoot
    ? "the tests run as an ordinary user already: they cannot make another user's orphan (CI runs them as root)"
    : null;
if (reason) console.log(`orphans as an ordinary user: skipped: ${reason}`);

const token = `unprivileged-${randomUUID()}`;
let nobodyOrphan: ProcIdentity;
let rootOrphan: ProcIdentity;

/** A client and its server, both as uid 65534, from a copy of the fixtures it can read. */
async function nobodyPair(): Promise<{ client: ProcIdentity; server: ProcIdentity; kill: () => Promise<void> }> {
  const dir = tempDir('orphans-nobody-');
  chmodSync(dir, 0o755);
  for (const f of ['client.mjs', 'fake-mcp-server.mjs']) copyFileSync(join(FIXTURES, f), join(dir, f));
  const child = spawn(
    'setpriv',
    [
      '--reuid',
      String(NOBODY),
      '--regid',
      String(NOBODY),
      '--clear-groups',
      nodeFor(NOBODY) ?? process.execPath,
      'client.mjs',
      'node',
      'fake-mcp-server.mjs',
      token,
    ],
    {
      cwd: dir,
      env: env(),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const m = await until('client-up from the ordinary user', () => /client-up (\d+) (\d+)/.exec(out), 30_000);
  const client = identify(Number(m[1]))!;
  const server = identify(Number(m[2]))!;
  // setpriv execs the client: our child is the client itself, reaped by us, so its pid cannot be reused meanwhile.
  expect(child.pid).toBe(client.pid);
  return {
    client,
    server,
    kill: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

beforeAll(async () => {
  if (reason) return;
  const [mine, roots] = await Promise.all([nobodyPair(), startPair('node', ['fake-mcp-server.mjs', token])]);
  await Promise.all([mine.kill(), killClient(roots)]);
  nobodyOrphan = mine.server;
  rootOrphan = roots.server;
}, 60_000);

afterAll(async () => {
  await cleanup();
  if (u.available) u.cleanup();
}, 30_000);

describe.skipIf(reason !== null)('orphans and contain as uid 65534', () => {
  it("orphans lists that user's orphan and reports root's as unreadable, without crashing on what it cannot read", async () => {
    if (!u.available) return;
    // The whole machine with the default patterns: root's processes everywhere, unreadable.
    const run = await u.run(['orphans', '--json', '--match', token]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as OrphanReport;
    const mine = report.entries.filter((e) => e.command.includes(token));
    expect(mine.map((e) => [e.pid, e.startTime, e.user, e.classification])).toEqual([[nobodyOrphan.pid, nobodyOrphan.startTime, 'nobody', 'client-gone']]);
    expect(report.unreadable).toContainEqual({ pid: rootOrphan.pid, user: 'root', command: `node fake-mcp-server.mjs ${token}` });
    expect(report.entries.every((e) => e.user === 'nobody')).toBe(true);
    // Its --stuck-after state lives in a folder of its own (harness/live-machine/pending.ts), not root's:
    // its run registry, wherever that is for this user and this environment (registry.ts).
    const state = statSync(registryPath(process.env, NOBODY));
    expect([state.uid, state.mode & 0o777]).toEqual([NOBODY, 0o700]);

    const text = await u.run(['orphans', '--no-defaults', '--match', token]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain(`CLIENT-GONE  pid ${nobodyOrphan.pid} (start ${nobodyOrphan.startTime}) user nobody  node fake-mcp-server.mjs ${token}\n`);
    expect(text.stdout).toContain(`1 matching process of other users could not be read (run as root to see them): ${rootOrphan.pid}\n`);
  });

  it('a client configuration this user cannot read is one line naming the file, and the other files are read on', async () => {
    if (!u.available) return;
    const home = u.workDir();
    const secretFile = join(home, '.cursor', 'mcp.json');
    mkdirSync(join(home, '.cursor'));
    chmodSync(join(home, '.cursor'), 0o755);
    writeFileSync(secretFile, JSON.stringify({ mcpServers: { hidden: { command: 'node', args: ['hidden.js'] } } }), { mode: 0o600 });
    // A documented file in a folder this user may not enter: not absent, unreadable, one line too.
    const hiddenFolder = join(home, '.gemini');
    mkdirSync(hiddenFolder, { mode: 0o700 });
    const behindFolder = join(hiddenFolder, 'settings.json');
    writeFileSync(behindFolder, JSON.stringify({ mcpServers: { behind: { command: 'node', args: ['behind.js'] } } }), { mode: 0o644 });
    const windsurf = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    mkdirSync(join(home, '.codeium', 'windsurf'), { recursive: true });
    chmodSync(join(home, '.codeium'), 0o755);
    chmodSync(join(home, '.codeium', 'windsurf'), 0o755);
    writeFileSync(windsurf, JSON.stringify({ mcpServers: { tokened: { command: 'node', args: ['fake-mcp-server.mjs', token] } } }), { mode: 0o644 });
    const run = await u.run(['orphans', '--json', '--no-defaults', '--match', token], { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as OrphanReport;
    expect(report.clientConfigs.problems.sort()).toEqual(
      [
        `${secretFile}: cannot read it: cannot be read by this user (permission denied)`,
        `${behindFolder}: cannot read it: cannot be read by this user (permission denied)`,
      ].sort(),
    );
    expect(report.clientConfigs.files).toEqual([{ client: 'windsurf', file: windsurf }]);
    const mine = report.entries.find((e) => e.pid === nobodyOrphan.pid);
    expect(mine?.configured.map((c) => `${c.client}: ${c.name} (${c.how})`)).toEqual(['windsurf: tokened (command and args match exactly)']);
  });

  it("contain refuses root's process without --force and contains its own; root's --all-orphans refuses its orphan the same way", async () => {
    if (!u.available) return;
    const refused = await u.run(['contain', String(rootOrphan.pid), '--json']);
    expect(refused.code).toBe(2);
    const r = JSON.parse(refused.stdout) as ContainResult;
    expect([r.outcome, r.reason]).toEqual(['refused', `process ${rootOrphan.pid} belongs to user root, not to you (use --force)`]);
    expect(r.steps.some((s) => describeStep(s).startsWith('SIGTERM'))).toBe(false);
    expect(alive(rootOrphan)).toBe(true);

    // As root, --all-orphans keeps contain's rules: the ordinary user's orphan is refused without
    // --force, root's own is contained (exit 2: something was refused).
    const asRoot = await runCli(['contain', '--all-orphans', '--no-defaults', '--match', token, '--wait', '0.5', '--json']);
    expect(asRoot.stderr).toBe('');
    expect(asRoot.code).toBe(2);
    const all = (JSON.parse(asRoot.stdout) as ContainResult[]).map((x) => [x.pid, x.outcome, x.reason]).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(all).toEqual(
      [
        [nobodyOrphan.pid, 'refused', `process ${nobodyOrphan.pid} belongs to user nobody, not to root, who runs this (use --force)`],
        [rootOrphan.pid, 'contained', 'ended by SIGTERM'],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(alive(nobodyOrphan)).toBe(true);
    expect(alive(rootOrphan)).toBe(false);

    const own = await u.run(['contain', String(nobodyOrphan.pid), '--start-time', String(nobodyOrphan.startTime), '--wait', '0.5', '--json']);
    expect(own.code).toBe(0);
    expect((JSON.parse(own.stdout) as ContainResult).outcome).toBe('contained');
    expect(alive(nobodyOrphan)).toBe(false);
  });
});
