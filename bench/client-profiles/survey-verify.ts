/**
 * `crash-drill survey --verify`: the survey's stop and crash cells checked by clients that are not
 * the harness's code, the stand-ins of the client-profiles ground truth (ground-truth.ts): each
 * drilled server is started again, loopback only, by each profile's own client (the TS SDK's
 * transport, 1.23.0 for gemini-cli, the Python SDK's, scripted_client.py for the rest) under the
 * subreaper holder, opened, then stopped (the client lives on) or left by a SIGKILLed client; what
 * is alive after the grace is compared with what the survey's `idle` drill of that profile and
 * mode left. Same answer (something left, or nothing): verified; else disputed, each one a bug in
 * the harness or a profile to be found at its event.
 *
 *   node dist/bench/client-profiles/survey-verify.js <survey folder> [--only id,...] [--grace-ms N] [--since-loss-ms N] [--parallel N]
 *
 * Writes verify.json and verify.md into the folder and marks the cells of survey.json.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProfileName } from '../../harness/client-profiles/profiles.js';
import { loadCatalog } from '../../harness/survey/catalog.js';
import { drillsByProfile, processName } from '../../harness/survey/cells.js';
import { npmCacheDir } from '../../harness/survey/cache.js';
import { install } from '../../harness/survey/install.js';
import { openLoopbackNetwork } from '../../harness/drill/network/namespace.js';
import { fill, prepareNeeds, serverWords, withoutDrillRemote } from '../../harness/survey/needs.js';
import { writeTable } from '../../harness/survey/run-survey.js';
import type { SurveyTable } from '../../harness/survey/table.js';
import type { RunResults } from '../../harness/results/types.js';
import { catchInterrupts } from '../../harness/cli/interrupts.js';
import { inLanes } from '../../harness/util/lanes.js';
import { packageRoot } from '../../harness/util/paths.js';
import { envSecrets, redact } from '../../harness/util/secrets.js';
import { withEnvFile } from './env-file.js';
import { ensureInstalled } from './setup.js';
import { HOLDER, standInClient } from './stand-ins.js';
import { runTrial, type Situation } from './trial.js';

export type Mark = 'verified' | 'disputed' | 'error';

export interface VerifyRecord {
  id: string;
  profile: ProfileName;
  situation: Situation;
  mark: Mark;
  survey: string[];
  standIn: string[];
  error: string | null;
}

export function markOf(surveyLeft: number, standInLeft: number, error: string | null): Mark {
  if (error) return 'error';
  return surveyLeft > 0 === standInLeft > 0 ? 'verified' : 'disputed';
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const dir = resolve(argv[0] ?? 'crash-drill-survey');
  const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const only = flag('--only')?.split(',');
  // Where the survey's snapshot of survivors is: the exit deadline then the grace after the loss, and
  // at least the grace after a stop sequence's end (docs/drill-model.md, no-survivors).
  const graceMs = Number(flag('--grace-ms') ?? 2000);
  const sinceLossMs = Number(flag('--since-loss-ms') ?? 4000);
  const parallel = Number(flag('--parallel') ?? 8);
  if (!Number.isInteger(parallel) || parallel < 1)
    throw new Error(`--parallel: expected a whole number of trials at once, at least 1, got "${flag('--parallel')}"`);
  const table = JSON.parse(readFileSync(join(dir, 'survey.json'), 'utf8')) as SurveyTable;
  const catalog = loadCatalog(resolve(packageRoot(), table.catalog));
  const installed = ensureInstalled();
  const records: VerifyRecord[] = [];
  // Interrupted: no trial starts, the running ones end what they hold, the network and the
  // scratch folder go, and nothing is written.
  const interrupts = catchInterrupts();
  for (const row of table.rows) {
    if (interrupts.caught()) break;
    if (row.notStarted !== null || (only && !only.includes(row.id))) continue;
    const entry = catalog.servers.find((s) => s.id === row.id);
    if (!entry) continue;
    const inst = await install(entry);
    if (!inst.ok) continue;
    const results = JSON.parse(readFileSync(join(dir, 'servers', row.id, 'run', 'results.json'), 'utf8')) as RunResults;
    const byProfile = drillsByProfile(results, table.profiles);
    const prepared = prepareNeeds(entry);
    const secrets = envSecrets(entry.secrets);
    // The same loopback-only network as the survey's drills (docs/network.md): its keeper lives for this server's trials.
    const network = await openLoopbackNetwork(`verify-${row.id}`, []);
    try {
      const words = serverWords(entry, inst.program, prepared.values).map(withoutDrillRemote);
      const env: Record<string, string> = {
        ...Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, withoutDrillRemote(fill(v, prepared.values))])),
        ...entry.secrets,
      };
      if (entry.registry === 'npm') Object.assign(env, { npm_config_cache: npmCacheDir(), npm_config_offline: 'true', npm_config_update_notifier: 'false' });
      // Every client here passes its own choice of variables: a shell in front, which reads them
      // from a private file and execs the server, gives the server its own (env-file.ts).
      const [shell, ...rest] = withEnvFile(env, words, prepared.scratch);
      const [command, args] = network.command(shell!, rest);
      // The stand-in clients call spawn-helper when a server has it (a bundled fake), so such a
      // server is compared with the survey's drill after that call; every other at idle.
      const helper = results.drills.some((d) => d.scenario === `${row.id}-spawn-helper`);
      const jobs = table.profiles.flatMap((profile) =>
        (['stop', 'crash'] as const).flatMap((situation) => {
          const drill = byProfile
            .get(profile)
            ?.find((d) =>
              helper
                ? d.scenario === `${row.id}-spawn-helper` && d.point === 'after-response' && d.mode === situation
                : d.scenario === `${row.id}-lifecycle` && d.point === 'idle' && d.mode === situation,
            );
          return drill ? [{ profile, situation, drill }] : [];
        }),
      );
      // A trial mostly waits (the server's start, the stop sequence, the grace): several at once.
      await inLanes(
        jobs,
        parallel,
        async ({ profile, situation, drill }) => {
          const trial = await runTrial({
            holder: HOLDER,
            client: standInClient(profile, installed),
            server: [command, ...args],
            situation,
            graceMs,
            sinceLossMs,
            // The folder the survey's drills run the server in. A server may read it: cclsp 0.7.0 scans it for the
            // languages to start servers for (its stderr: "Scanning . for extensions: rs", "Starting 1 LSP servers...").
            cwd: prepared.values.folder,
            readyMs: 60_000,
            stoppedMs: 60_000,
            signal: interrupts.signal,
          });
          if (interrupts.caught()) return;
          // A process with no command line has released its memory: it is exiting, not left behind.
          const left = trial.survivors.filter((s) => s.cmd.length > 0);
          const rec: VerifyRecord = {
            id: row.id,
            profile,
            situation,
            mark: markOf(drill.survivors.length, left.length, trial.error),
            survey: drill.survivors.map((s) => processName(s.cmdline)).sort(),
            standIn: left.map((s) => redact(processName(s.cmd), secrets)).sort(),
            error: trial.error ? redact(trial.error.split('\n')[0]!, secrets) : null,
          };
          records.push(rec);
          process.stderr.write(
            `${row.id} × ${profile} × ${situation}: ${rec.mark}${rec.mark === 'verified' ? '' : ` (survey: ${rec.survey.join(', ') || 'none'}; stand-in: ${rec.standIn.join(', ') || rec.error || 'none'})`}\n`,
          );
        },
        () => interrupts.caught() !== null,
      );
    } finally {
      await network.close();
      rmSync(prepared.scratch, { recursive: true, force: true });
    }
  }
  interrupts.release();
  if (interrupts.caught()) return interrupts.exitCode();
  // An earlier --verify of other servers keeps its marks: records of the same cell are replaced.
  const file = join(dir, 'verify.json');
  const key = (r: VerifyRecord) => `${r.id}|${r.profile}|${r.situation}`;
  const fresh = new Set(records.map(key));
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as VerifyRecord[]).filter((r) => !fresh.has(key(r))) : [];
  records.unshift(...earlier);
  // In the table's order (rows, then profiles, stop before crash), whatever order the trials ended in.
  const rank = (r: VerifyRecord) => [table.rows.findIndex((row) => row.id === r.id), table.profiles.indexOf(r.profile), r.situation === 'stop' ? 0 : 1];
  records.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
  for (const r of records) {
    const cell = table.rows.find((row) => row.id === r.id)?.cells[r.profile];
    if (cell) cell.verify = { ...cell.verify, [r.situation]: r.mark };
  }
  writeTable(table, dir);
  writeFileSync(file, `${JSON.stringify(records, null, 2)}\n`);
  const count = (m: Mark) => records.filter((r) => r.mark === m).length;
  const lines = [
    '# survey --verify',
    '',
    `${count('verified')} verified, ${count('disputed')} disputed, ${count('error')} errors, of ${records.length} stop and crash cells, survivors listed ${sinceLossMs} ms after the loss and at least ${graceMs} ms after a stop's end.`,
    '',
    '| server | profile | mode | mark | survey left | stand-in left |',
    '| --- | --- | --- | --- | --- | --- |',
    ...records
      .filter((r) => r.mark !== 'verified')
      .map((r) => `| ${r.id} | ${r.profile} | ${r.situation} | ${r.mark} | ${r.survey.join(', ') || 'none'} | ${r.standIn.join(', ') || r.error || 'none'} |`),
    '',
  ];
  writeFileSync(join(dir, 'verify.md'), lines.join('\n'));
  process.stdout.write(`${lines[2]}\n`);
  return 0;
}

process.exitCode = await main();
