/**
 * The /proc readers behind a drill's diagnosis, on real processes and real files: an event
 * loop's epoll interest list (is stdin still polled?), threads and where they wait, and the
 * runtime and SDK read from the files near a server's command.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { identify } from '../../harness/observe/identity.js';
import { epollTargets, processFacts } from '../../harness/observe/process-facts.js';
import { nodeSdks } from '../../harness/observe/program-sdk/node-sdk.js';
import { importedPackages } from '../../harness/observe/program-sdk/python-sdk.js';
import { runtimeFacts } from '../../harness/observe/runtime-facts.js';
import { fifoStdio } from '../../harness/shared/fifo-stdio.js';
import { packageRoot } from '../../harness/util/paths.js';

const ROOT = packageRoot();

describe('diagnosis facts', () => {
  it("reads an epoll instance's watched fds from its fdinfo", () => {
    const fdinfo =
      'pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t26\ntfd:       16 events:       19 data: 10  pos:0 ino:1a sdev:10\ntfd:        0 events:       19 data: 0  pos:0 ino:12d81d sdev:f\n';
    expect(epollTargets(fdinfo)).toEqual([16, 0]);
    expect(epollTargets('pos:\t0\nflags:\t02000002\n')).toEqual([]);
  });

  it("sees a Node process poll its stdin (a socketpair, as Node's spawn makes it) while it reads, and stop once it has read the end", async () => {
    // Reads stdin and keeps an interval alive, like a TypeScript SDK 1.x server with a timer.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "process.stdin.on('data', () => console.log('got')); process.stdin.on('end', () => console.log('end')); setInterval(() => {}, 1000); console.log('ready')",
      ],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    try {
      await once(child.stdout!, 'data');
      // A round trip: once it has answered a line, its loop is polling stdin.
      const got = once(child.stdout!, 'data');
      child.stdin!.write('x\n');
      await got;
      const id = identify(child.pid!)!;
      const reading = processFacts(id, { role: 'server', secrets: [], children: [] })!;
      expect(reading).toMatchObject({
        role: 'server',
        state: expect.stringMatching(/^[RS]$/),
        eventLoop: true,
        stdin: { kind: 'socket', polled: true, readingThreads: 0 },
      });
      expect(reading.threads[0]).toMatchObject({ tid: child.pid, comm: expect.stringMatching(/^node/) });
      expect(reading.threadCount).toBeGreaterThan(1);

      const ended = once(child.stdout!, 'data');
      child.stdin!.end();
      await ended; // it printed 'end': it has read EOF
      // Node closes the stream's handle (and so leaves epoll) a turn or two after 'end': wait for that.
      const after = await until('stdin to leave its epoll set', () => {
        const facts = processFacts(id, { role: 'server', secrets: [], children: [] })!;
        return facts.stdin?.polled === false && facts;
      });
      expect(after.stdin).toEqual({ kind: 'socket', polled: false, readingThreads: 0 });
      expect(after.eventLoop).toBe(true);
      // -e has no script on disk: the runtime is named, no SDK is claimed.
      expect(runtimeFacts(id)).toMatchObject({ runtime: 'node', sdks: [] });
    } finally {
      child.kill('SIGKILL');
      await once(child, 'close');
    }
  });

  it.each([
    ['a FIFO, as fifo-stdio.ts gives for a client of real pipes', 'pipe'],
    ["a socketpair, as Node's spawn makes it", 'socket'],
  ] as const)('counts a thread blocked reading stdin when stdin is %s', async (_, kind) => {
    // A Python program whose main thread blocks in a read of stdin, as the Python SDK's stdio transport does.
    const pipes = kind === 'pipe' ? fifoStdio() : null;
    const code = "import sys; print('ready', flush=True); sys.stdin.buffer.read(); print('end', flush=True)";
    const child = spawn('python3', ['-c', code], { stdio: [pipes?.serverStdin ?? 'pipe', pipes?.serverStdout ?? 'pipe', 'ignore'] });
    pipes?.closeServerEnds();
    const stdout = pipes?.stdout ?? child.stdout!;
    const stdin = pipes?.stdin ?? child.stdin!;
    // Its output as it comes: chunks are not lines (a FIFO's reader may get 'ready' and '\n' apart).
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const printed = (line: string) => until(`it to print ${line}`, () => text.split('\n').includes(line));
    try {
      await printed('ready');
      const id = identify(child.pid!)!;
      const reading = await until('its thread to block reading stdin', () => {
        const facts = processFacts(id, { role: 'server', secrets: [], children: [] })!;
        return facts.stdin.readingThreads > 0 && facts;
      });
      expect(reading.stdin).toEqual({ kind, polled: false, readingThreads: 1 });
      expect(reading.threads[0].wchan).toMatch(kind === 'pipe' ? /pipe_read/ : /unix_stream_read_generic|unix_stream_data_wait/);
      stdin.end();
      await printed('end');
    } finally {
      const exited = child.exitCode !== null || child.signalCode !== null ? null : once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      stdout.destroy();
      stdin.destroy();
    }
  });

  it("takes a Node script's SDK from the nearest package.json that declares one (this package: the SDK 1.x it depends on)", () => {
    expect(nodeSdks(join(ROOT, 'dist/fake-servers/ignores-eof.js'))).toEqual([
      { name: '@modelcontextprotocol/sdk', version: '1.32.2', file: join(ROOT, 'node_modules/@modelcontextprotocol/sdk/package.json') },
    ]);
    expect(nodeSdks('/nonexistent/dir/server.js')).toEqual([]);
  });

  it("reads a Python script's top-level imports, so FastMCP beside mcp in one venv is named only when imported", () => {
    expect([...importedPackages(join(ROOT, 'fake-servers/python-sdk/mcpserver/thread-keeps-alive.py'))!].sort()).toEqual(['mcp', 'threading', 'time']);
    expect(importedPackages(join(ROOT, 'fake-servers/python-sdk/fastmcp/thread-keeps-alive.py'))).toContain('fastmcp');
    expect(importedPackages('/nonexistent.py')).toBeNull();
  });
});
