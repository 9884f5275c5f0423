/** The kernel's socket tables (proc(5), Documentation/networking/proc_net_tcp.rst), parsed in harness/observe/net.ts. */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

export type NetTableName = 'tcp' | 'tcp6' | 'unix';

/** The whole table as `pid` sees it, or '' when it cannot be read. */
export function readNetTable(pid: number, name: NetTableName): string {
  try {
    return readFileSync(`/proc/${pid}/net/${name}`, 'utf8');
  } catch {
    return '';
  }
}

const scanBuf = Buffer.alloc(64 * 1024);

/**
 * Reads a tcp table a read(2) at a time, handing each line to `match` until it answers: each
 * read walks only a page of the established hash, so stopping early skips the rest.
 */
export function scanNetTable<T>(name: 'tcp' | 'tcp6', match: (line: string) => T | undefined, pid?: number): T | undefined {
  let fd: number;
  try {
    fd = openSync(pid === undefined ? `/proc/net/${name}` : `/proc/${pid}/net/${name}`, 'r');
  } catch {
    return undefined;
  }
  try {
    let carry = '';
    for (;;) {
      const bytesRead = readSync(fd, scanBuf, 0, scanBuf.length, null);
      if (bytesRead === 0) break;
      const lines = (carry + scanBuf.toString('latin1', 0, bytesRead)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        const found = match(line);
        if (found !== undefined) return found;
      }
    }
    return match(carry);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
