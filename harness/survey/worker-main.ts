/** The survey's worker process (drill-server.ts), started by run-survey.ts inside the loopback-only namespace; its spec comes on stdin. */
import { workerMain } from './drill-server.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const code = await workerMain(Buffer.concat(chunks).toString('utf8'));
process.exit(code);
