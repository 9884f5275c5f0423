/**
 * reports-stdio: well-behaved, and at its start writes what its stdin and stdout are (`fifo`,
 * `socket` or `other`, by fstat: S_ISFIFO, S_ISSOCK) to a file named for its pid in the folder
 * FAKE_STDIO_DIR: the oracle for the stdio a client profile gives its server (a socketpair
 * under a Node or Bun client, real pipes under the Python SDK, Codex, Goose and Zed).
 */
import { fstatSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFakeServer } from './lib/base.js';

const kind = (fd: number): string => {
  const stat = fstatSync(fd);
  return stat.isFIFO() ? 'fifo' : stat.isSocket() ? 'socket' : 'other';
};
const dir = process.env.FAKE_STDIO_DIR;
if (dir) writeFileSync(join(dir, String(process.pid)), `stdin=${kind(0)} stdout=${kind(1)}\n`);

await runFakeServer({
  name: 'reports-stdio',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
});
