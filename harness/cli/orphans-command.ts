/** `crash-drill orphans`: servers whose client is gone, stuck or left them behind. Exit 0 none, 1 some (for cron/CI gates), 3 usage. */
import type { Command } from 'commander';
import { chooseBackend } from '../live-machine/backend.js';
import {
  addClientConfigOptions,
  backendOption,
  clientConfigs,
  type ClientConfigOptions,
  repeatable,
  seconds,
  serverPatterns,
} from '../live-machine/cli-options.js';
import { ORPHANED } from '../live-machine/classify.js';
import { findOrphans } from '../live-machine/find-orphans.js';
import { checkPendingFolder } from '../live-machine/pending.js';
import { renderOrphans } from '../live-machine/render.js';
import { redactProcessFields } from '../util/secrets.js';
import type { BackendName } from '../live-machine/types.js';
import { registerContainCommand } from './contain-command.js';
import { commandExit, EXIT, UsageError } from '../util/errors.js';
import { registerInspectCommand } from './inspect-command.js';

export interface OrphansOptions extends ClientConfigOptions {
  all?: boolean;
  json?: boolean;
  match?: string[];
  defaults: boolean;
  stuckAfter: number;
  idleAfter: number;
  backend?: BackendName;
  config?: string;
}

export function orphansCommand(options: OrphansOptions, out = process.stdout, err = process.stderr): Promise<number> {
  return commandExit(err, 'orphans', async () => {
    const patterns = await serverPatterns(options);
    // Its --stuck-after state lives in the run registry: one that is not the user's own refuses the command.
    checkPendingFolder();
    if (patterns.length === 0 && !options.defaults) throw new UsageError('--no-defaults needs at least one --match <regex> (or orphans.match in the config)');
    // What it shows names no secret of a process's command line.
    const report = redactProcessFields(
      findOrphans(chooseBackend(options.backend), {
        patterns,
        markers: options.defaults,
        stuckAfterMs: options.stuckAfter * 1000,
        idleAfterMs: options.idleAfter * 1000,
        all: options.all ?? false,
        configs: clientConfigs(options),
      }),
    );
    out.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderOrphans(report));
    return [...ORPHANED].some((k) => report.counts[k] > 0) ? EXIT.failed : EXIT.ok;
  });
}

export function registerOrphansCommand(program: Command): void {
  const command = program
    .command('orphans')
    .description(
      'list the MCP stdio servers on this machine whose client is gone or stuck, or that a live client left behind (detached, superseded), with the evidence (exit 1 when there are some)',
    )
    .option('--all', 'also list servers whose client is attached, and those that could not be classified')
    .option('--json', 'print the report as JSON')
    .option('--match <regex>', 'a command line that counts as an MCP server; repeatable', repeatable)
    .option('--no-defaults', 'drop the built-in server patterns and the drill marker: only --match and orphans.match count')
    .option('--stuck-after <s>', "a client that leaves the server's output unread this long is stuck", seconds, 30)
    .option('--idle-after <s>', 'a server its client started again, with no I/O at every look for this long, is superseded', seconds, 30)
    .option('--config <path>', 'config file with orphans.match (default: crash-drill.config.{mjs,js} in the working folder)')
    .addOption(backendOption());
  addClientConfigOptions(command).action(async (options: OrphansOptions) => {
    process.exitCode = await orphansCommand(options);
  });
}

/** orphans, inspect and contain, registered in one call (harness/cli/main.ts). */
export function registerOrphanCommands(program: Command): void {
  registerOrphansCommand(program);
  registerInspectCommand(program);
  registerContainCommand(program);
}
