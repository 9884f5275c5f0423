/** The survey's worker (drill-server.ts), a process per server; its spec comes on stdin, or from a path argument. */
import { readFileSync } from 'node:fs';
import { workerMain } from './drill-server.js';

let text: string;
if (process.argv[2]) text = readFileSync(process.argv[2], 'utf8');
else {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  text = Buffer.concat(chunks).toString('utf8');
}
// The survey stops a worker with SIGTERM: its drills are contained as `crash-drill run` contains them.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => controller.abort());
process.exit(await workerMain(text, controller.signal));
