/**
 * `crash-drill survey`: registers the command; the work is in harness/survey/run-survey.ts.
 */
import type { Command } from 'commander';
import { PROFILE_NAMES, type ProfileName } from '../client-profiles/profiles.js';
import { NETWORK_CHOICES, type NetworkChoice } from '../config/index.js';
import type { ShardSpec } from '../plan/shard.js';
import { commandExit, EXIT, Interrupted, SIGNAL_EXIT } from '../util/errors.js';
import { catchInterrupts } from './interrupts.js';
import { packageRoot } from '../util/paths.js';
import { listOf, oneOf, positiveInt, shardArg } from './run-flags.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

interface SurveyCommandOptions {
  catalog?: string;
  only?: string[];
  clientProfile?: ProfileName[];
  out: string;
  shard?: ShardSpec;
  merge?: string[];
  ecosystem?: string;
  installOnly?: boolean;
  render?: boolean;
  verify?: boolean;
  network?: NetworkChoice;
  parallel?: number;
}

export function registerSurveyCommand(program: Command): void {
  program
    .command('survey')
    .description(
      'install the published servers of a catalog at their pinned versions and drill each under every client profile, loopback only; writes the table (survey.md, survey.html, survey.json) and a report per server with a finding',
    )
    .option('--catalog <file>', 'the catalog (default: survey/catalog.yaml of this package)')
    .option('--only <ids>', "only these entries' ids; repeatable or comma-separated", (v: string, p: string[] = []) => [
      ...p,
      ...v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ])
    .option('--client-profile <names>', `the columns: ${PROFILE_NAMES.join(', ')} (default: all)`, (v: string, p: ProfileName[] = []) => [
      ...new Set(listOf(PROFILE_NAMES, 'client profile')(v, p)),
    ])
    .option('--out <dir>', 'the survey folder', 'crash-drill-survey')
    .option(
      '--network <network>',
      `the servers' network: ${NETWORK_CHOICES.join(', ')} (default loopback: each listing and drill in a network namespace where only loopback exists and the drill remote is reachable; the survey refuses where none can be made; host runs them on the host's network)`,
      oneOf(NETWORK_CHOICES, 'network'),
    )
    .option('--parallel <n>', 'servers drilled at once; their drills share the CPU slots of the cores (default: 2, or 1 on one core)', positiveInt)
    .option('--shard <i/n>', 'only entry i, i+n, ... of the catalog (1-based); put the shards together with --merge', shardArg)
    .option('--merge <folders...>', 'write one table from the survey folders of a sharded survey into --out (drills nothing)')
    .option(
      '--verify',
      "mark --out's idle stop and crash cells verified or disputed by independent stand-in clients (bench/client-profiles/survey-verify.ts; needs a checkout)",
    )
    .option('--render', "write the table again from --out's server folders (servers/<id>/), drilling nothing")
    .option('--install-only', 'install each entry into the cache (or find it there) and drill nothing: the step that needs the network')
    .option('--ecosystem <file>', 'also write this Markdown page: the date, every version and SDK, and the table (npm run survey: docs/ecosystem.md)')
    .action(async (options: SurveyCommandOptions) => {
      process.exitCode = await commandExit(process.stderr, 'survey', async () => {
        if (options.merge) {
          const { mergeSurveys } = await import('../survey/merge-surveys.js');
          const table = mergeSurveys(options.merge, options.out);
          process.stdout.write(`survey: merged ${options.merge.length} folders, ${table.rows.length} servers, into ${options.out}\n`);
          return EXIT.ok;
        }
        const catalog = options.catalog ?? join(packageRoot(), 'survey', 'catalog.yaml');
        if (options.verify) {
          const script = join(packageRoot(), 'dist/bench/client-profiles/survey-verify.js');
          const args = [script, options.out, ...(options.only ? ['--only', options.only.join(',')] : [])];
          // A SIGINT or SIGTERM is the verify's to act on (it ends its trials and cleans up), so it
          // is passed on, and the command exits with the verify's code once it has.
          const forward = (signal: NodeJS.Signals) => child.kill(signal);
          const child = spawn(process.execPath, args, { stdio: 'inherit' });
          process.on('SIGINT', forward);
          process.on('SIGTERM', forward);
          const code = await new Promise<number>((done) => {
            child.on('error', () => done(EXIT.harness));
            child.on('close', (c) => done(c === 0 ? EXIT.ok : c === SIGNAL_EXIT.SIGINT || c === SIGNAL_EXIT.SIGTERM ? c : EXIT.harness));
          });
          process.off('SIGINT', forward);
          process.off('SIGTERM', forward);
          return code;
        }
        if (options.render) {
          const { renderSurvey } = await import('../survey/run-survey.js');
          const table = renderSurvey({ catalog, only: options.only, profiles: options.clientProfile, out: options.out, ecosystem: options.ecosystem });
          process.stdout.write(`survey: rendered ${table.rows.length} servers from ${options.out}\n`);
          return EXIT.ok;
        }
        const { runSurvey } = await import('../survey/run-survey.js');
        // Interrupted: no server starts, each worker contains its drills, scratch folders go, no table.
        const interrupts = catchInterrupts();
        try {
          await runSurvey(
            {
              catalog,
              only: options.only,
              profiles: options.clientProfile,
              out: options.out,
              shard: options.shard,
              ecosystem: options.ecosystem,
              installOnly: options.installOnly,
              network: options.network,
              parallel: options.parallel,
              signal: interrupts.signal,
            },
            (line) => process.stdout.write(`${line}\n`),
          );
        } catch (error) {
          if (interrupts.caught() && error instanceof Interrupted) return interrupts.exitCode();
          throw error;
        } finally {
          interrupts.release();
        }
        return EXIT.ok;
      });
    });
}
