/**
 * `crash-drill init`: registers the command; the work is in harness/init/run-init.ts.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_INIT_TIMEOUT_MS } from '../init/defaults.js';
import type { FromClientOptions } from '../init/from-client.js';
import type { InitOptions } from '../init/run-init.js';
import { CLIENT_IDS } from '../mcp-clients/types.js';
import { commandExit, UsageError } from '../util/errors.js';

function positiveMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive whole number of ms, got "${value}"`);
  return n;
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description("ask an MCP server for its tools and write crash-drill.config.mjs, the server's lifecycle scenario and one scenario per tool")
    .usage('[options] [--] <command> [args...]')
    .argument('[command]', 'the command that starts the server, as MCP clients and the inspector take it')
    .argument('[args...]', "the server's arguments; everything after the command is the server's, flags too (or put -- before the command)")
    // Options after the command are the server's (`init python server.py --port 3`), as in a client
    // configuration's command + args; ours come before it.
    .passThroughOptions()
    .option('--command <cmd>', 'the command that starts the server (asked for on a terminal when left out)')
    .option('--arg <a>', 'an argument of the server command; repeat it for each one', (v: string, p: string[] = []) => [...p, v])
    .option('--cwd <dir>', "the server's working folder (default: the current folder)")
    .option('--dir <dir>', 'the scenarios folder to write', 'scenarios')
    .option('--force', 'overwrite files that exist already')
    .option('--timeout <ms>', 'how long the server may take to start and list its tools', positiveMs, DEFAULT_INIT_TIMEOUT_MS)
    .option('--from-client <name>', `one subject and its scenarios per stdio server of an MCP client's configuration (${CLIENT_IDS.join(', ')})`)
    .option('--from-client-config <file>', "the same from an MCP client's configuration file; repeatable", (v: string, p: string[] = []) => [...p, v])
    .action(async (command: string | undefined, args: string[], options: InitOptions & FromClientOptions) => {
      process.exitCode = await commandExit(process.stderr, 'init', () => init(command, args, options));
    });
}

async function init(command: string | undefined, args: string[], options: InitOptions & FromClientOptions): Promise<number> {
  const io = { cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  if (command !== undefined && (options.command !== undefined || options.arg !== undefined))
    throw new UsageError(`the server command is given twice: as <command> ("${command}") and as --command/--arg; give one of them`);
  if (options.fromClient !== undefined || options.fromClientConfig !== undefined) {
    if (command !== undefined || options.command !== undefined || options.arg !== undefined || options.cwd !== undefined)
      throw new UsageError('--from-client and --from-client-config take the commands from the configuration: leave out <command>, --command, --arg and --cwd');
    const { runInitFromClient } = await import('../init/from-client.js');
    return runInitFromClient(options, io);
  }
  const { runInit } = await import('../init/run-init.js');
  return runInit(command === undefined ? options : { ...options, command, arg: args }, io);
}
