/**
 * `crash-drill inspect <pid>`: one process, before anything touches it. `--out <dir>` appends
 * the snapshot to the process's hash-chained evidence log, which `crash-drill verify` checks.
 */
import type { Command } from 'commander';
import { chooseBackend } from '../live-machine/backend.js';
import { appendEvidence, checkOutDir, evidenceFile } from '../live-machine/evidence.js';
import { inspectProcess } from '../live-machine/inspect.js';
import { renderSnapshot } from '../live-machine/render.js';
import { redactProcessFields } from '../util/secrets.js';
import type { BackendName } from '../live-machine/types.js';
import { addClientConfigOptions, backendOption, clientConfigs, type ClientConfigOptions, pidArgument } from '../live-machine/cli-options.js';
import { problemLine } from '../mcp-clients/types.js';
import { commandExit, EXIT } from '../util/errors.js';

export interface InspectOptions extends ClientConfigOptions {
  json?: boolean;
  out?: string;
  backend?: BackendName;
}

export function inspectCommand(pid: number, options: InspectOptions, out = process.stdout, err = process.stderr): Promise<number> {
  return commandExit(err, 'inspect', () => {
    if (options.out) checkOutDir(options.out);
    const configs = clientConfigs(options);
    // What it shows and keeps names no secret of the process's command line or environment.
    const snapshot = redactProcessFields(inspectProcess(chooseBackend(options.backend), pid, configs.matcher));
    let log = null;
    if (options.out) log = appendEvidence(evidenceFile(options.out, pid, snapshot.process.startTime), [{ type: 'orphan-snapshot', snapshot }]);
    out.write(options.json ? `${JSON.stringify(log ? { ...snapshot, evidence: log } : snapshot, null, 2)}\n` : renderSnapshot(snapshot));
    if (log && !options.json) out.write(`evidence: ${log.file} (${log.records} records, head ${log.head.slice(0, 12)})\n`);
    if (!options.json) for (const p of configs.loaded.problems) out.write(`client config: ${problemLine(p)}\n`);
    return EXIT.ok;
  });
}

export function registerInspectCommand(program: Command): void {
  const command = program
    .command('inspect')
    .description(
      'snapshot one process before anything touches it: identity, who holds the other end of its stdio, descriptors, relatives, credential names, launcher chain',
    )
    .argument('<pid>', 'the process id', pidArgument)
    .option('--json', 'print the snapshot as JSON')
    .option('--out <dir>', 'append the snapshot to the hash-chained evidence log in <dir>/evidence/')
    .addOption(backendOption());
  addClientConfigOptions(command).action(async (pid: number, options: InspectOptions) => {
    process.exitCode = await inspectCommand(pid, options);
  });
}
