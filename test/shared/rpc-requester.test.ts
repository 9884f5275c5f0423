/**
 * A request whose write finds the server's stdin closed rejects as "the server closed the
 * connection", the same answer as the end of its stdout. After a server dies, which of them the
 * client meets first is a race: a fresh-clone run's cancel drill (a server that dies on the
 * cancel) said "tools/list: write EPIPE" where other runs said "the server closed the
 * connection". Over a real pipe: sh closes its stdin and stays up with its stdout open, so the
 * write's EPIPE is the only news; the next write finds the stream Node destroyed after it.
 */
import { spawn } from 'node:child_process';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { signalIdentity } from '../../harness/containment/signal.js';
import { identify, type ProcIdentity } from '../../harness/observe/identity.js';
import type { ClientEvent } from '../../harness/shared/protocol.js';
import { RecordingStdioTransport, StdinGone } from '../../harness/shared/recording-transport.js';
import { connectionClosed, RpcClosed, RpcRequester } from '../../harness/shared/rpc-requester.js';
import type { SpawnedServer } from '../../harness/shared/spawn-subject.js';

const started: ProcIdentity[] = [];
afterEach(() => {
  for (const id of started.splice(0)) signalIdentity(id, 'SIGKILL');
});

/** sh that closes its stdin, says so on stdout, and waits with stdout open; the requester over it. */
async function stdinClosed(): Promise<{ rpc: RpcRequester; events: ClientEvent[] }> {
  const child = spawn('sh', ['-c', 'exec 0<&-; echo closed; exec sleep 60'], { stdio: ['pipe', 'pipe', 'ignore'] });
  started.push(identify(child.pid!)!);
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const spawned: SpawnedServer = {
    child,
    stdin: child.stdin,
    stdout: child.stdout,
    onClose: (listener) => void child.once('close', listener),
    started: Promise.resolve(true),
    identity: () => null,
    exited: false,
    attach: (onChunk, onEnd) => {
      child.stdout.on('data', (chunk: Buffer) => onChunk(chunk.toString('utf8')));
      child.stdout.on('end', onEnd);
    },
  };
  const events: ClientEvent[] = [];
  const transport = new RecordingStdioTransport(spawned, (e) => events.push(e));
  await transport.start();
  const rpc = new RpcRequester(transport);
  rpc.attach();
  await ready;
  return { rpc, events };
}

describe('RpcRequester, when the write finds the server gone', () => {
  it('rejects an EPIPE on the write as the server closing the connection', async () => {
    const { rpc, events } = await stdinClosed();
    const error = await rpc.request('tools/list', {}, 5000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcClosed);
    expect((error as Error).message).toBe('the server closed the connection');
    // Nothing was written, and stdout is still open: the EPIPE was the only news.
    expect(events.filter((e) => e.type === 'rpc-out')).toEqual([]);
  });

  it('rejects the next write, on the stream Node destroyed after the EPIPE, the same way', async () => {
    const { rpc } = await stdinClosed();
    await expect(rpc.request('tools/list', {}, 5000)).rejects.toBeInstanceOf(RpcClosed);
    const second = await rpc.request('ping', {}, 5000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(RpcClosed);
    expect((second as Error).message).toBe('the server closed the connection');
  });
});

describe('connectionClosed, the one answer in either era', () => {
  it("takes the SDK 1 Client's close, not its cancel, which has the same code", () => {
    expect(connectionClosed(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(true);
    expect(connectionClosed(new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled'))).toBe(false);
    expect(connectionClosed(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toBe(false);
  });

  it('takes the requester close and a write that found stdin closed, and nothing else', () => {
    expect(connectionClosed(new RpcClosed('the server closed the connection'))).toBe(true);
    expect(connectionClosed(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(connectionClosed(new StdinGone('Not connected'))).toBe(true);
    expect(connectionClosed(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(connectionClosed(new Error('Not connected'))).toBe(false);
  });
});
