/**
 * `crash-drill contain <pid>` / `--all-orphans` (harness/containment/process.ts). Exit 0 ended by
 * SIGTERM, 1 forced or survived, 2 refused or stopped (nothing signalled), 3 usage.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { chooseBackend } from '../live-machine/backend.js';
import { containOrphan, type ContainResult } from '../live-machine/contain.js';
import { checkOutDir } from '../live-machine/evidence.js';
import { findOrphans } from '../live-machine/find-orphans.js';
import { checkPendingFolder } from '../live-machine/pending.js';
import type { BackendName } from '../live-machine/types.js';
import {
  addClientConfigOptions,
  backendOption,
  clientConfigs,
  type ClientConfigOptions,
  pidArgument,
  repeatable,
  seconds,
  serverPatterns,
} from '../live-machine/cli-options.js';
import { describeStep } from '../containment/step.js';
import { configuredLines } from '../live-machine/render.js';
import { redactProcessFields } from '../util/secrets.js';
import { commandExit, EXIT, UsageError } from '../util/errors.js';

export interface ContainCommandOptions extends ClientConfigOptions {
  allOrphans?: boolean;
  startTime?: number;
  force?: boolean;
  wait: number;
  revokeCmd?: string;
  revokeUrl?: string;
  probeCmd?: string;
  probeUrl?: string;
  out?: string;
  json?: boolean;
  backend?: BackendName;
  match?: string[];
  defaults: boolean;
  config?: string;
}

const EXIT_OF: Record<ContainResult['outcome'], number> = {
  contained: EXIT.ok,
  forced: EXIT.failed,
  survived: EXIT.failed,
  refused: EXIT.refused,
  stopped: EXIT.refused,
};

function render(r: ContainResult): string {
  const lines = [`contain ${r.pid}: ${r.outcome.toUpperCase()}: ${r.reason}`];
  if (r.configured !== null && r.configured.length === 0) lines.push('  configured: no client configuration entry matches it or its launchers');
  if (r.configured !== null && r.configured.length > 0) lines.push(...configuredLines({ configured: r.configured, serverEvidence: [] }));
  lines.push(...r.steps.map((s) => `  +${s.ms} ms  ${describeStep(s)}`));
  if (r.incident) lines.push(...r.incident.followUp.map((f) => `  follow-up: ${f}`));
  if (r.evidence) lines.push(`  evidence: ${r.evidence.file} (${r.evidence.records} records, head ${r.evidence.head.slice(0, 12)})`);
  return `${lines.join('\n')}\n`;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a start time (a whole number, as inspect or orphans print it), got "${value}"`);
  return Number(value);
}

export function containCommand(pid: number | undefined, options: ContainCommandOptions, out = process.stdout, err = process.stderr): Promise<number> {
  return commandExit(err, 'contain', () => contain(pid, options, out));
}

async function contain(pid: number | undefined, options: ContainCommandOptions, out: NodeJS.WritableStream): Promise<number> {
  if ((pid === undefined) === !options.allOrphans) throw new UsageError('give one <pid> or --all-orphans');
  const backend = chooseBackend(options.backend);
  let targets: { pid: number; startTime?: number }[] = pid === undefined ? [] : [{ pid, startTime: options.startTime }];
  const configs = clientConfigs(options);
  if (options.out) checkOutDir(options.out);
  if (options.allOrphans) {
    const patterns = await serverPatterns(options);
    checkPendingFolder(); // --all-orphans looks as `orphans` does, through the registry's state
    const report = findOrphans(backend, { patterns, markers: options.defaults, stuckAfterMs: Number.POSITIVE_INFINITY, all: false, configs });
    targets = report.entries.filter((e) => e.classification === 'client-gone').map((e) => ({ pid: e.pid, startTime: e.startTime }));
  }
  const results: ContainResult[] = [];
  for (const t of targets) {
    const r = await containOrphan({
      backend,
      pid: t.pid,
      expectStartTime: t.startTime,
      force: options.force,
      waitMs: options.wait * 1000,
      revokeCmd: options.revokeCmd,
      revokeUrl: options.revokeUrl,
      probeCmd: options.probeCmd,
      probeUrl: options.probeUrl,
      outDir: options.out,
      configs: configs.matcher,
    });
    // What it shows names no secret of a process's command line.
    const shown = redactProcessFields(r);
    results.push(shown);
    if (!options.json) out.write(render(shown));
  }
  if (options.json) out.write(`${JSON.stringify(options.allOrphans ? results : results[0], null, 2)}\n`);
  else if (options.allOrphans)
    out.write(
      `${results.length} orphan${results.length === 1 ? '' : 's'} with client gone; ${results.filter((r) => r.outcome === 'contained').length} contained, ${results.filter((r) => r.outcome === 'forced' || r.outcome === 'survived').length} forced, ${results.filter((r) => r.outcome === 'refused' || r.outcome === 'stopped').length} refused or stopped\n`,
    );
  const codes = results.map((r) => EXIT_OF[r.outcome]);
  return codes.includes(EXIT.failed) ? EXIT.failed : codes.includes(EXIT.refused) ? EXIT.refused : EXIT.ok;
}

export function registerContainCommand(program: Command): void {
  const command = program
    .command('contain')
    .description('end an orphaned server without losing the evidence: snapshot, revoke and prove it, SIGTERM, wait, re-identify, SIGKILL only proven members')
    .argument('[pid]', 'the process id', pidArgument)
    .option('--all-orphans', 'contain every "client gone" entry of `orphans`, one by one')
    .option('--start-time <t>', 'contain only if the process still has this start time (from inspect or orphans)', wholeNumber)
    .option('--force', "go on when the probe is still allowed; contain another user's process")
    .option('--wait <s>', 'how long to wait after SIGTERM', seconds, 2)
    .option('--revoke-cmd <command>', "a shell command that revokes the process's authority (CRASH_DRILL_PID and CRASH_DRILL_START_TIME are set)")
    .option('--revoke-url <url>', 'a URL to POST to that revokes its authority')
    .option('--probe-cmd <command>', 'a shell command that uses its authority: it must fail (be denied) after revocation')
    .option('--probe-url <url>', 'a URL that must answer 401 or 403 after revocation')
    .option('--out <dir>', 'write the hash-chained evidence log (with the incident record) to <dir>/evidence/')
    .option('--json', 'print the result as JSON')
    .option('--match <regex>', 'with --all-orphans: a command line that counts as an MCP server; repeatable', repeatable)
    .option('--no-defaults', 'with --all-orphans: only --match and orphans.match count')
    .option('--config <path>', 'config file with orphans.match')
    .addOption(backendOption());
  addClientConfigOptions(command).action(async (pid: number | undefined, options: ContainCommandOptions) => {
    process.exitCode = await containCommand(pid, options);
  });
}
