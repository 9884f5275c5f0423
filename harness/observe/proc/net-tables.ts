/**
 * The kernel's socket tables: /proc/PID/net/{tcp,tcp6,unix} (the network namespace of that
 * process) and /proc/net/{tcp,tcp6} (this process's). Formats: proc(5) and
 * Documentation/networking/proc_net_tcp.rst; the lines are parsed in harness/observe/net.ts.
 */
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
 * Reads /proc/net/tcp or tcp6 (or /proc/PID/net/..., the tables of `pid`'s network namespace) a read(2) at a time and hands each line (the header too) to
 * `match`, stopping at the first line it answers (not undefined) for. Each read returns about a
 * page of lines and walks the established hash only that far, so stopping early skips the rest
 * of the walk: the whole file costs milliseconds on a machine with a large hash
 * (net.ipv4.tcp_ehash_entries). Undefined when no line matched or the file cannot be read.
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
