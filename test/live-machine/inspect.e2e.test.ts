/**
 * `crash-drill inspect <pid>` from the real CLI, on a server started through `sh -c` by a live
 * client, holding a TCP connection to a loopback listener of this test, a regular file, a child
 * and a credential in its environment; and on an orphan (the client SIGKILLed). Human text and
 * --json carry the identity, the stdio ends with who holds the other end, the descriptors, the
 * related processes, credential names (never values) and the launcher chain; --out appends to
 * one hash-chained log per process that `crash-drill verify` accepts.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../harness/live-machine/inspect.js';
import { identify, type ProcIdentity } from '../../harness/observe/index.js';
import { runCli } from '../support/cli.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';
import { cleanup, killClient, startPair, type Pair } from './helpers.js';

const secret = `secret-${randomUUID()}`;
const file = join(tempDir('inspect-'), 'held-open.txt');
const listener: Server = createServer((socket) => socket.on('error', () => {}));
let port = 0;
let live: Pair;
let node: ProcIdentity;
let helper: ProcIdentity;
let orphan: Pair;
const me = userInfo();

function childOf(pid: number): ProcIdentity | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return identify(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

beforeAll(async () => {
  writeFileSync(file, 'held open by the server\n');
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
  [live, orphan] = await Promise.all([
    startPair('sh', ['-c', 'node fake-mcp-server.mjs; :'], { HELPER: '1', GITHUB_TOKEN: secret, CONNECT: String(port), OPEN: file }),
    startPair('node', ['fake-mcp-server.mjs']),
  ]);
  node = await until('the node server below sh', () => childOf(live.server.pid));
  helper = await until("the server's helper child", () => childOf(node.pid));
  await killClient(orphan);
}, 60_000);

afterAll(async () => {
  await cleanup();
  listener.close();
}, 30_000);

describe('crash-drill inspect', () => {
  it('human text: identity, each stdio end and its client, the TCP peer and the file, relatives, credential names only, the chain', async () => {
    const run = await runCli(['inspect', String(node.pid)]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text).toMatch(
      new RegExp(
        `^process ${node.pid} \\(start ${node.startTime}, started \\S+Z, running \\d+s\\)\\n  user ${me.username}  ppid ${live.server.pid}  pgid \\d+  sid \\d+  state [RS]\\n  command: node fake-mcp-server\\.mjs\\nstdio:\\n`,
      ),
    );
    for (const name of ['stdin', 'stdout', 'stderr']) {
      expect(text).toMatch(
        new RegExp(
          `\\n  ${name}: socket socket:\\[\\d+\\] \\(rw\\)\\n    the other end of socket:\\[\\d+\\] \\(socket:\\[\\d+\\]\\): ${live.client.pid} \\[[RS]\\] \\S*node .*client\\.mjs sh -c node fake-mcp-server\\.mjs; : \\(fd \\d+\\)\\n`,
        ),
      );
    }
    expect(text).not.toContain('EOF is pending');
    expect(text).toMatch(new RegExp(`\\n  \\d+ tcp 127\\.0\\.0\\.1:\\d+ -> 127\\.0\\.0\\.1:${port} \\(ESTABLISHED\\)\\n`));
    expect(text).toMatch(new RegExp(`\\n  \\d+ file ${file.replace(/[.]/g, '\\.')} \\(r\\)\\n`));
    expect(text).toContain(`\nchildren:\n  ${helper.pid} [S] ${process.execPath} -e setInterval(() => {}, 1 << 30)\ngrandchildren: none\n`);
    expect(text).toContain('\ncredentials in its environment (names only): GITHUB_TOKEN\n');
    expect(text).toContain(
      `\nlauncher chain: ${live.server.pid} (launcher) sh -c node fake-mcp-server.mjs; :  ->  ${node.pid} (server) node fake-mcp-server.mjs\n`,
    );
    expect(text).not.toContain(secret);
  });

  it('--json: the same fields; --out appends to one log per process, twice, and verify accepts it; the secret is nowhere', async () => {
    const out = tempDir('inspect-out-');
    const first = await runCli(['inspect', String(node.pid), '--json', '--out', out]);
    expect(first.code).toBe(0);
    const s = JSON.parse(first.stdout) as Snapshot & { evidence: { file: string; records: number } };
    expect(s.process).toMatchObject({
      pid: node.pid,
      startTime: node.startTime,
      ppid: live.server.pid,
      user: me.username,
      uid: me.uid,
      command: 'node fake-mcp-server.mjs',
      argv: ['node', 'fake-mcp-server.mjs'],
    });
    expect(s.stdio!.map((e) => [e.fd, e.kind, e.access, e.holders!.map((h) => [h.pid, h.startTime])])).toEqual(
      [0, 1, 2].map((fd) => [fd, 'socket', 'rw', [[live.client.pid, live.client.startTime]]]),
    );
    expect(s.eofPending).toBe(false);
    expect(s.descriptors!.filter((d) => d.tcp).map((d) => [d.protocol, d.tcp!.remote, d.tcp!.state])).toEqual([['tcp', `127.0.0.1:${port}`, 'ESTABLISHED']]);
    expect(s.descriptors!.filter((d) => d.kind === 'file').map((d) => [d.object, d.access])).toEqual([[file, 'r']]);
    expect(s.related.children.map((c) => [c.pid, c.startTime])).toEqual([[helper.pid, helper.startTime]]);
    expect(s.related.grandchildren).toEqual([]);
    expect(s.related.processGroup.map((p) => p.pid)).toEqual(expect.arrayContaining([live.client.pid, live.server.pid, helper.pid]));
    expect(s.related.session.map((p) => p.pid)).toEqual(expect.arrayContaining([live.client.pid, live.server.pid, helper.pid]));
    expect(s.credentials).toEqual(['GITHUB_TOKEN']);
    expect(s.launcherChain).toEqual([
      { pid: live.server.pid, startTime: live.server.startTime, command: 'sh -c node fake-mcp-server.mjs; :', launcher: true },
      { pid: node.pid, startTime: node.startTime, command: 'node fake-mcp-server.mjs', launcher: false },
    ]);
    expect(s.evidence).toMatchObject({ file: join(out, 'evidence', `pid-${node.pid}-${node.startTime}.jsonl`), records: 1 });

    const second = await runCli(['inspect', String(node.pid), '--out', out]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`\\nevidence: ${s.evidence.file.replace(/[.]/g, '\\.')} \\(2 records, head [0-9a-f]{12}\\)\\n$`));
    const log = readFileSync(s.evidence.file, 'utf8');
    expect(
      log
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toEqual(['orphan-snapshot', 'orphan-snapshot']);
    expect(first.stdout + second.stdout + log).not.toContain(secret);

    const verified = await runCli(['verify', out]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/ 2 records, head [0-9a-f]{12}\n1 verified, 0 broken\n$/);
  });

  it('an orphan: no live process holds the other end, EOF is pending (text and --json)', async () => {
    const [text, json] = await Promise.all([runCli(['inspect', String(orphan.server.pid)]), runCli(['inspect', String(orphan.server.pid), '--json'])]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /\n {2}stdin: socket socket:\[\d+\] \(rw\)\n {4}the other end of socket:\[\d+\] \(its peer socket is closed\): held by no live process\n/,
    );
    expect(text.stdout).toContain('\n  no live process holds the write end of its stdin: the client is gone and EOF is pending\n');
    const s = JSON.parse(json.stdout) as Snapshot;
    expect(s.process).toMatchObject({ pid: orphan.server.pid, startTime: orphan.server.startTime, ppid: 1 });
    expect(s.eofPending).toBe(true);
    expect(s.stdio!.map((e) => e.holders)).toEqual([[], [], []]);
    expect(s.launcherChain).toEqual([{ pid: orphan.server.pid, startTime: orphan.server.startTime, command: 'node fake-mcp-server.mjs', launcher: false }]);
  });

  it('a pid with no process is a clear error (exit 3)', async () => {
    const run = await runCli(['inspect', '4194304']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('crash-drill: inspect: no process 4194304 on this machine\n');
  });
});
