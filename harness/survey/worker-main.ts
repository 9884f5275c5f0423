/**
 * The survey's worker process (drill-server.ts), started by run-survey.ts inside the loopback-only
 * namespace. Its spec (with the dummy secrets) comes on stdin; a path as its argument is read
 * instead, as the first version of run-survey.ts gave it.
 */
import { readFileSync } from 'node:fs';
import { workerMain } from './drill-server.js';

let text: string;
if (process.argv[2]) text = readFileSync(process.argv[2], 'utf8');
else {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  text = Buffer.concat(chunks).toString('utf8');
}
process.exit(await workerMain(text));
