/**
 * Asks a server for its tools (`tools/list`, every page) and leaves nothing behind: the SDK's
 * close() signals only the direct child (typescript-sdk #2023), so every process carries a marker
 * and what carries it after close() is ended by identity.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { identify, type ProcIdentity } from '../observe/index.js';
import { listPids, readCmdline, readEnviron } from '../observe/index.js';
import { terminate } from '../containment/terminate.js';
import { harnessInfo } from '../util/version.js';
import { InternalError } from '../util/errors.js';
import { newRecord } from '../containment/record.js';
import type { NetworkChoice } from '../config/index.js';
import { openLoopbackNetwork, type LoopbackNetwork } from '../drill/network/namespace.js';

/** The environment variable that marks every process `init` started (and only those). */
export const INIT_MARKER_ENV = 'CRASH_DRILL_INIT';

export interface ServerCommand {
  command: string;
  args: string[];
  /** absolute working folder of the server */
  cwd: string;
  /** Extra environment (a client entry's values, init --from-client): never written or printed. */
  env?: Record<string, string>;
}

/** The server could not be asked for its tools: exit 4, as a drill whose server cannot start ends in `error`. */
export class ListToolsError extends InternalError {
  readonly code = 'CRASH_DRILL_INIT_LIST_TOOLS' as const;
  constructor(
    message: string,
    readonly stderrTail: string,
  ) {
    super(message);
  }
}

export interface ListToolsResult {
  tools: Tool[];
  /** What had to be ended after close(), by identity: empty when the server exited on its own. */
  ended: Array<ProcIdentity & { cmdline: string[]; endedBy: string }>;
}

/** The server gets the SDK client's default environment plus the marker; ListToolsError when it does not start or answer in time. */
export async function listServerTools(server: ServerCommand, timeoutMs: number, opts: { network?: NetworkChoice } = {}): Promise<ListToolsResult> {
  // The marker extends a caller's own, so it can tell its processes from those of inits beside it.
  const outer = process.env[INIT_MARKER_ENV];
  const marker = outer ? `${outer}.${randomUUID()}` : randomUUID();
  const network = opts.network === 'loopback' ? await openLoopbackNetwork(`init-${marker}`, []) : null;
  try {
    return await listIn(server, timeoutMs, marker, network);
  } finally {
    await network?.close();
  }
}

async function listIn(server: ServerCommand, timeoutMs: number, marker: string, network: LoopbackNetwork | null): Promise<ListToolsResult> {
  const [command, args] = network ? network.command(server.command, server.args) : [server.command, server.args];
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: server.cwd,
    env: { ...getDefaultEnvironment(), ...server.env, [INIT_MARKER_ENV]: marker },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  const client = new Client({ name: 'crash-drill-init', version: harnessInfo().version });
  let tools: Tool[] = [];
  let failure: unknown = null;
  try {
    await client.connect(transport, { timeout: timeoutMs });
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    failure = error;
    tools = [];
  } finally {
    await client.close().catch(() => {});
  }
  const ended = await endMarked(marker);
  if (failure !== null) {
    const cause = failure instanceof Error ? failure.message : String(failure);
    throw new ListToolsError(`could not list the tools of \`${[server.command, ...server.args].join(' ')}\`: ${cause}`, tailLines(stderr, 10));
  }
  return { tools, ended };
}

/** Every live process carrying the marker, ended by identity. Zombies count as exited. */
async function endMarked(marker: string): Promise<ListToolsResult['ended']> {
  const found: ProcIdentity[] = [];
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    const env = readEnviron(pid);
    if (env?.get(INIT_MARKER_ENV) !== marker) continue;
    const id = identify(pid);
    if (id) found.push(id);
  }
  if (found.length === 0) return [];
  const records = found.map((id) => newRecord(id, readCmdline(id.pid) ?? []));
  await terminate(records, { termWaitMs: 2000, killWaitMs: 2000 });
  return records.filter((r) => r.endedBy !== 'already-gone').map((r) => ({ pid: r.pid, startTime: r.startTime, cmdline: r.cmdline, endedBy: r.endedBy }));
}

function tailLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}
