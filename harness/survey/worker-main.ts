/** The survey's worker process (drill-server.ts), started by run-survey.ts inside the loopback-only namespace. */
import { workerMain } from './drill-server.js';

const code = await workerMain(process.argv[2]!);
process.exit(code);
