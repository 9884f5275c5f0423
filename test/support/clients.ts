/**
 * Clients the tests start and then take away, as a user's MCP client would: a small Node client
 * (test/live-machine/fixtures/client.mjs, test/mcp-clients/fixtures/config-client.mjs) spawns a
 * server on stdio pipes and prints `client-up <client pid> <server pid>` once the server is up.
 * The orphans, client-configuration and container tests each started one this way and each had
 * their own copy of this; they share it now.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { signalIdentity, type SignalOutcome } from '../../harness/containment/signal.js';
import { identify, type ProcIdentity } from '../../harness/observe/index.js';
import { type CliRun, runCli } from './cli.js';
import { until } from './until.js';

export interface LaunchedClient {
  child: ChildProcess;
  client: ProcIdentity;
  /** The process the client started (the server, or a launcher in front of it). */
  server: ProcIdentity;
}

export interface LaunchOptions {
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** What is starting, for the wait's message. */
  what: string;
  timeoutMs: number;
}

/** `node <script> ...args`; resolves once it said the server is up, with both by identity. */
export async function launchClient(script: string, args: string[], opts: LaunchOptions): Promise<LaunchedClient> {
  const child = spawn(process.execPath, [script, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const m = await until(`client-up from ${opts.what}`, () => /client-up (\d+) (\d+)/.exec(out), opts.timeoutMs);
  const client = identify(Number(m[1]));
  const server = identify(Number(m[2]));
  if (!client || !server) throw new Error(`the client or what it started (${opts.what}) is gone already`);
  return { child, client, server };
}

/**
 * SIGKILL to a client we started, by its identity (pid and start time), and its exit awaited:
 * what the signal came to ('sent', or why not).
 */
export async function killClient(launched: { child: ChildProcess; client: ProcIdentity }): Promise<SignalOutcome> {
  const { child } = launched;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  const out = signalIdentity(launched.client, 'SIGKILL');
  if (out === 'sent') await exited;
  return out;
}

/** The real CLI in a fixture home's project, with its HOME and XDG_CONFIG_HOME (test/mcp-clients/fixture-home.ts), as the client-configuration tests run it. */
export function fixtureCli(fx: { project: string; env: Record<string, string> }, args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: fx.project, env: { ...fx.env, TEAM_NAME: '', FIXTURE_REGION: '' } });
}
