/**
 * A session client (fixtures/session-client.mjs) the tests drive: started as this user or, through
 * setpriv, as uid 65534, told to start, ping and stop its sessions one JSON line at a time, each
 * answer awaited (an event, never a sleep).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { identify, type ProcIdentity } from '../../harness/observe/index.js';
import { until } from '../support/until.js';
import { env } from './helpers.js';

export interface Session {
  id: string;
  /** What the client spawned: the server, or a launcher in front of it. */
  child: ProcIdentity;
  /** The real server (the fake server's own pid, behind a launcher too). */
  server: ProcIdentity;
}

export interface DrivenClient {
  process: ChildProcess;
  client: ProcIdentity;
  start(id: string, command: string, args: string[], extraEnv?: Record<string, string>): Promise<Session>;
  ping(id: string): Promise<void>;
  /** `signal` to the child it spawned, and nothing else; resolves once that child has exited. */
  stop(id: string, signal: NodeJS.Signals): Promise<void>;
}

/** `node <script>`, as this user or (with `dropTo`) as that uid through setpriv, which execs: the child is the client. */
export async function startSessionClient(script: string, dropTo: number | null): Promise<DrivenClient> {
  const argv = [process.execPath, script];
  const [command, args] =
    dropTo === null ? [argv[0]!, argv.slice(1)] : ['setpriv', ['--reuid', String(dropTo), '--regid', String(dropTo), '--clear-groups', ...argv]];
  const child = spawn(command, args, { env: env(), stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const client = await until('the session client to start', () => identify(child.pid!));
  let asked = 0;
  const ask = async (cmd: Record<string, unknown>, answer: string): Promise<string[]> => {
    const from = out.length;
    asked++;
    child.stdin!.write(`${JSON.stringify(cmd)}\n`);
    const line = await until(
      `"${answer}" from the session client (command ${asked})`,
      () =>
        out
          .slice(from)
          .split('\n')
          .find((l) => l === answer || l.startsWith(`${answer} `) || l.startsWith('error ')),
      30_000,
    );
    if (line.startsWith('error ')) throw new Error(`session client: ${line}`);
    return line.split(' ');
  };
  return {
    process: child,
    client,
    async start(id, cmd, cmdArgs, extraEnv = {}) {
      const [, , childPid, serverPid] = await ask({ op: 'start', id, command: cmd, args: cmdArgs, env: extraEnv }, `started ${id}`);
      const started = identify(Number(childPid));
      const server = identify(Number(serverPid));
      if (!started || !server) throw new Error(`session ${id}: what the client started is gone already`);
      return { id, child: started, server };
    },
    async ping(id) {
      await ask({ op: 'ping', id }, `pong ${id}`);
    },
    async stop(id, signal) {
      await ask({ op: 'stop', id, signal }, `stopped ${id}`);
    },
  };
}
