/**
 * Real pipes for a server's stdin and stdout, for clients that give pipes: Node's spawn gives a
 * socketpair (libuv uv__process_init_stdio) and has no pipe(), so these are FIFOs unlinked before
 * anything runs, opened blocking, the stdin reader through a moment's O_RDWR so no open waits.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants as C, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FifoStdio {
  /** The descriptors to hand the server as its stdin and stdout; closeServerEnds() once it has them. */
  serverStdin: number;
  serverStdout: number;
  /** The client's ends: the writer of the server's stdin, the reader of its stdout. */
  stdin: Socket;
  stdout: Socket;
  /** Closes this process's copies of the server's ends, once the server (or its parent) holds them. */
  closeServerEnds(): void;
}

export function fifoStdio(): FifoStdio {
  const dir = mkdtempSync(join(tmpdir(), 'crash-drill-fifo-'));
  const opened: number[] = [];
  const open = (path: string, flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  try {
    const inPath = join(dir, 'stdin');
    const outPath = join(dir, 'stdout');
    execFileSync('mkfifo', ['-m', '600', inPath, outPath], { stdio: 'ignore' });
    const writerForNow = open(inPath, C.O_RDWR);
    const serverStdin = open(inPath, C.O_RDONLY);
    const ourStdin = open(inPath, C.O_WRONLY | C.O_NONBLOCK);
    closeSync(opened.splice(opened.indexOf(writerForNow), 1)[0]);
    const ourStdout = open(outPath, C.O_RDONLY | C.O_NONBLOCK);
    const serverStdout = open(outPath, C.O_WRONLY);
    opened.length = 0;
    let closed = false;
    return {
      serverStdin,
      serverStdout,
      stdin: new Socket({ fd: ourStdin, readable: false, writable: true }),
      stdout: new Socket({ fd: ourStdout, readable: true, writable: false }),
      closeServerEnds() {
        if (closed) return;
        closed = true;
        closeSync(serverStdin);
        closeSync(serverStdout);
      },
    };
  } catch (error) {
    for (const fd of opened) closeSync(fd);
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
