/**
 * `crash-drill survey`: installs each catalog entry (install.ts), drills it in a worker process
 * (drill-server.ts) on the run's network (`loopback` unless asked otherwise: docs/network.md),
 * and writes the table and a report per finding.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { PROFILE_NAMES, type ProfileName } from '../client-profiles/profiles.js';
import type { CatalogEntry, NetworkChoice } from '../config/index.js';
import { loopbackUnavailable } from '../drill/network/namespace.js';
import type { ShardSpec } from '../plan/shard.js';
import type { DrillResult, RunResults } from '../results/types.js';
import { Interrupted, UsageError, UserError } from '../util/errors.js';
import { inLanes } from '../util/lanes.js';
import { distFile, packageRoot } from '../util/paths.js';
import { CpuPoolServer } from '../run/cpu-pool.js';
import { NetworkUnavailableError } from '../run/network-check.js';
import { envSecrets, redact } from '../util/secrets.js';
import { surveyCacheRoot } from './cache.js';
import { loadCatalog, selectEntries } from './catalog.js';
import { abandoningProfiles, type Cell, cellOf, couldNotStart, drillsByProfile, isAbandonDrill, sdkRead } from './cells.js';
import { ABANDON_RUN_DIR, RUN_DIR, SERVER_FILE, type ServerOutcome, type WorkerSpec } from './drill-server.js';
import { install } from './install.js';
import { maintainerReport } from './maintainer-report.js';
import { makeScratch, missingNeed } from './needs.js';
import { findingsMarkdown, type SurveyRow, type SurveyTable, serversMarkdown, tableHtml, tableMarkdown } from './table.js';

export class SurveyError extends UserError {
  readonly code = 'CRASH_DRILL_SURVEY';
}

export interface SurveyOptions {
  catalog: string;
  only?: string[];
  profiles?: ProfileName[];
  out: string;
  shard?: ShardSpec;
  /** How long a server may take to start and list its tools, ms. */
  timeoutMs?: number;
  /** Also write this Markdown page (docs/ecosystem.md): the date, every version and SDK, the table. */
  ecosystem?: string;
  /** Install (or find in the cache) and stop: what CI runs with network before the drills. */
  installOnly?: boolean;
  /** The servers' network for listing their tools and for every drill (docs/network.md). Default: loopback. */
  network?: NetworkChoice;
  /** Servers drilled at once (default: 2 where there are 2 cores or more); their drills share the cores' CPU slots. */
  parallel?: number;
  /** Aborted (SIGINT, SIGTERM): no server starts; each worker contains its drills and ends; scratch folders go; the table is not written. */
  signal?: AbortSignal;
}

export const SURVEY_FILES = { json: 'survey.json', markdown: 'survey.md', html: 'survey.html' } as const;

export async function runSurvey(options: SurveyOptions, say: (line: string) => void): Promise<SurveyTable> {
  const catalogFile = resolve(options.catalog);
  const catalog = loadCatalog(catalogFile);
  let entries = selectEntries(catalog, catalogFile, options.only);
  if (options.shard) entries = entries.filter((_, i) => i % options.shard!.total === options.shard!.index - 1);
  const network = options.network ?? 'loopback';
  // Before anything is installed or written: a survey never falls back to the host's network.
  if (!options.installOnly && network === 'loopback') {
    const reason = await loopbackUnavailable();
    if (reason !== null)
      throw new NetworkUnavailableError(`crash-drill survey: ${options.network ? '--network loopback' : "network loopback (the survey's default)"}`, reason);
  }
  const profiles = options.profiles && options.profiles.length > 0 ? options.profiles : [...PROFILE_NAMES];
  const out = resolve(options.out);
  if (!options.installOnly) mkdirSync(out, { recursive: true });
  const cacheRoot = surveyCacheRoot();
  const started = Date.now();
  const rows: SurveyRow[] = [];
  const cores = availableParallelism();
  const parallel = Math.max(1, Math.min(options.parallel ?? Math.min(2, cores), entries.length || 1));
  // One server's drills often wait (exit deadlines, a slow server's shutdown) while another's need
  // a core: servers overlap, and the CPU slots stay the cores' (the scheduler's), one pool that the
  // servers drilled at once draw on (harness/run/cpu-pool.ts); where none can be made, split between them.
  const cpuSlots = Math.max(1, Math.floor(cores / parallel));
  const shared = options.installOnly ? null : await sharedCpuPool(cores, say);
  const surveyOne = async (entry: CatalogEntry, index: number): Promise<void> => {
    const n = index + 1;
    const tag = `[${n}/${entries.length}] ${entry.id}`;
    const serverDir = join(out, 'servers', entry.id);
    if (!options.installOnly) rmSync(serverDir, { recursive: true, force: true });
    const early = entry.cannotStart ?? (options.installOnly ? null : missingNeed(entry));
    if (early) {
      say(`${tag}: could not start: ${early}`);
      if (!options.installOnly) notStarted(entry, serverDir, early);
      rows[n - 1] = rowOf(entry, profiles, { notStarted: early });
      return;
    }
    say(`${tag}: installing ${entry.registry} ${entry.package}@${entry.version}…`);
    const inst = await install(entry, cacheRoot);
    if (!inst.ok) {
      say(`${tag}: could not install: ${inst.reason}`);
      if (!options.installOnly) notStarted(entry, serverDir, `install failed: ${inst.reason}`);
      rows[n - 1] = rowOf(entry, profiles, { notStarted: `install failed: ${inst.reason}` });
      return;
    }
    const installed = inst.fromCache ? 'installed (cache)' : `installed in ${(inst.ms / 1000).toFixed(1)} s`;
    if (options.installOnly) {
      say(`${tag}: ${installed}`);
      return;
    }
    // Interrupted while it installed: it is not drilled.
    if (options.signal?.aborted) return;
    say(`${tag}: ${installed}; drilling under ${profiles.length} client profiles…`);
    const t0 = Date.now();
    const scratch = makeScratch(entry);
    let outcome: ServerOutcome;
    try {
      outcome = await runWorker(
        {
          entry,
          program: inst.program,
          serverDir,
          cacheRoot,
          profiles,
          timeoutMs: options.timeoutMs ?? 90_000,
          scratch,
          network,
          cpuSlots,
          cpuPool: shared?.pool.path ?? null,
        },
        options.signal,
      );
    } finally {
      // The worker's own finally does not run when it is killed.
      rmSync(scratch, { recursive: true, force: true });
    }
    if (options.signal?.aborted) {
      say(`${tag}: interrupted; its drills were contained`);
      return;
    }
    const row = rowFromOutcome(entry, profiles, out, serverDir, outcome);
    rows[n - 1] = row;
    const kinds = Object.values(row.cells).map((c) => c!.kind);
    const counts = [...new Set(kinds)].map((k) => `${k} ×${kinds.filter((x) => x === k).length}`).join(', ');
    say(`${tag}: ${((Date.now() - t0) / 1000).toFixed(1)} s: ${outcome.status === 'drilled' ? counts : `could not start: ${firstLine(outcome.reason ?? '')}`}`);
  };
  // --install-only installs one entry at a time (the step with the network); a survey overlaps its servers.
  try {
    await inLanes(entries, options.installOnly ? 1 : parallel, surveyOne, () => options.signal?.aborted === true);
  } finally {
    await shared?.close();
  }
  if (options.signal?.aborted) throw new Interrupted();
  if (options.installOnly) {
    say(`survey: ${entries.length} entries installed or found in ${cacheRoot} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { version: 1, catalog: relative(packageRoot(), catalogFile), profiles, rows: [] };
  }
  const table: SurveyTable = { version: 1, catalog: relative(packageRoot(), catalogFile), profiles, abandoning: abandoningProfiles(profiles), rows };
  writeTable(table, out);
  if (options.ecosystem) writeEcosystem(table, resolve(options.ecosystem), 'Generated by `npm run survey`');
  say(`survey: ${rows.length} servers in ${((Date.now() - started) / 1000).toFixed(1)} s; table: ${join(out, SURVEY_FILES.markdown)}`);
  return table;
}

/** The survey's pool of CPU slots, on a Unix socket in a folder of its own (0700), or null (and why) where none can be made. */
async function sharedCpuPool(cores: number, say: (line: string) => void): Promise<{ pool: CpuPoolServer; close(): Promise<void> } | null> {
  const dir = mkdtempSync(join(tmpdir(), 'crash-drill-survey-pool-'));
  try {
    const pool = await CpuPoolServer.listen(cores, join(dir, 'cpu.sock'));
    return {
      pool,
      close: async () => {
        await pool.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    say(`survey: the servers drilled at once split the CPU slots instead of sharing them: ${(error as Error).message}`);
    return null;
  }
}

/** A server that was not drilled still leaves its server.json, so the table can be rendered again from the folder. */
function notStarted(entry: CatalogEntry, serverDir: string, reason: string): void {
  mkdirSync(serverDir, { recursive: true });
  const outcome: ServerOutcome = { id: entry.id, status: 'could-not-start', reason, stderrTail: null, tools: [], missingTools: [], command: [] };
  writeFileSync(join(serverDir, SERVER_FILE), `${JSON.stringify(outcome, null, 2)}\n`);
}

/**
 * The table again from a survey folder's server folders, drilling nothing (`survey --render`):
 * an entry with no servers/<id>/server.json was not surveyed into this folder, and says so.
 */
export function renderSurvey(options: Pick<SurveyOptions, 'catalog' | 'only' | 'profiles' | 'out' | 'ecosystem'>): SurveyTable {
  const catalogFile = resolve(options.catalog);
  const entries = selectEntries(loadCatalog(catalogFile), catalogFile, options.only);
  const out = resolve(options.out);
  if (!existsSync(join(out, 'servers')))
    throw new UsageError(`--out: ${out} holds no survey (no servers/ folder): --render writes the table again from a folder a survey drilled into`);
  const profiles = options.profiles && options.profiles.length > 0 ? options.profiles : [...PROFILE_NAMES];
  const rows = entries.map((entry) => {
    const serverDir = join(out, 'servers', entry.id);
    const file = join(serverDir, SERVER_FILE);
    if (existsSync(file)) return rowFromOutcome(entry, profiles, out, serverDir, JSON.parse(readFileSync(file, 'utf8')) as ServerOutcome);
    return rowOf(entry, profiles, { notStarted: entry.cannotStart ?? `not surveyed into this folder (no servers/${entry.id}/${SERVER_FILE})` });
  });
  // Marks of an earlier `--verify` on this folder (verify.json) stay on their cells.
  const verifyFile = join(out, 'verify.json');
  if (existsSync(verifyFile)) {
    const marks = JSON.parse(readFileSync(verifyFile, 'utf8')) as {
      id: string;
      profile: ProfileName;
      situation: 'stop' | 'crash';
      mark: 'verified' | 'disputed' | 'error';
    }[];
    for (const m of marks) {
      const cell = rows.find((r) => r.id === m.id)?.cells[m.profile];
      if (cell) cell.verify = { ...cell.verify, [m.situation]: m.mark };
    }
  }
  const table: SurveyTable = { version: 1, catalog: relative(packageRoot(), catalogFile), profiles, abandoning: abandoningProfiles(profiles), rows };
  writeTable(table, out);
  if (options.ecosystem) writeEcosystem(table, resolve(options.ecosystem), 'Rendered by `crash-drill survey --render` from the server folders of survey runs');
  return table;
}

async function runWorker(spec: WorkerSpec, signal?: AbortSignal): Promise<ServerOutcome> {
  mkdirSync(spec.serverDir, { recursive: true });
  // The spec holds the dummy secrets: it goes to the worker on its stdin, never into a file.
  const secrets = envSecrets(spec.entry.secrets);
  const log = createWriteStream(join(spec.serverDir, 'worker.log'));
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [distFile('harness/survey/worker-main.js')], {
      cwd: packageRoot(),
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => log.write(redact(d.toString('utf8'), secrets));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const stop = () => child.kill('SIGTERM');
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    child.on('error', () => done(127));
    child.on('close', (c) => {
      signal?.removeEventListener('abort', stop);
      done(c ?? 1);
    });
    child.stdin.end(JSON.stringify(spec));
  });
  await new Promise<void>((done) => log.end(done));
  const file = join(spec.serverDir, SERVER_FILE);
  if (!existsSync(file))
    return {
      id: spec.entry.id,
      status: 'could-not-start',
      reason: `the survey's worker exited ${code} (its log: servers/${spec.entry.id}/worker.log)`,
      stderrTail: null,
      tools: [],
      missingTools: [],
      command: [],
    };
  const outcome = JSON.parse(readFileSync(file, 'utf8')) as ServerOutcome;
  return {
    ...outcome,
    reason: outcome.reason ? redact(outcome.reason, secrets) : null,
    stderrTail: outcome.stderrTail ? redact(outcome.stderrTail, secrets) : null,
  };
}

function rowOf(entry: CatalogEntry, profiles: readonly ProfileName[], how: { notStarted: string }): SurveyRow {
  const cell = couldNotStart(how.notStarted);
  return {
    id: entry.id,
    registry: entry.registry,
    package: entry.package,
    version: entry.version,
    language: entry.language,
    sdkDocumented: entry.sdk,
    sdkRead: null,
    repository: entry.repository,
    issues: entry.issues,
    use: entry.use,
    notStarted: how.notStarted,
    missingTools: [],
    cells: Object.fromEntries(profiles.map((p) => [p, cell])),
    abandoned: Object.fromEntries(abandoningProfiles(profiles).map((p) => [p, cell])),
    report: null,
  };
}

function rowFromOutcome(entry: CatalogEntry, profiles: readonly ProfileName[], out: string, serverDir: string, outcome: ServerOutcome): SurveyRow {
  if (outcome.status !== 'drilled') return rowOf(entry, profiles, { notStarted: firstLine(outcome.reason ?? 'unknown') });
  const runDir = join(serverDir, RUN_DIR);
  const results = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as RunResults;
  const byProfile = drillsByProfile(results, profiles);
  const abandonDir = join(serverDir, ABANDON_RUN_DIR);
  const abandonFile = join(abandonDir, 'results.json');
  const abandonRun = existsSync(abandonFile) ? drillsByProfile(JSON.parse(readFileSync(abandonFile, 'utf8')) as RunResults, profiles) : null;
  const cells: Partial<Record<ProfileName, Cell>> = {};
  for (const p of profiles)
    cells[p] = cellOf(
      (byProfile.get(p) ?? []).filter((d) => !isAbandonDrill(d, p)),
      out,
      runDir,
    );
  const abandoned: Partial<Record<ProfileName, Cell>> = {};
  for (const p of abandoningProfiles(profiles)) {
    const viaStop = (byProfile.get(p) ?? []).filter((d) => isAbandonDrill(d, p));
    abandoned[p] = viaStop.length > 0 ? cellOf(viaStop, out, runDir) : cellOf(abandonRun?.get(p) ?? [], out, abandonDir);
  }
  const row: SurveyRow = {
    ...rowOf(entry, profiles, { notStarted: '' }),
    notStarted: null,
    sdkRead: sdkRead(results.drills, runDir),
    missingTools: outcome.missingTools,
    cells,
    abandoned,
  };
  const leadIds = [...new Set(Object.values(cells).flatMap((c) => (c!.kind !== 'clean' && c!.drill ? [c!.drill] : [])))];
  if (leadIds.length > 0) {
    const leads = leadIds.map((id) => results.drills.find((d) => d.id === id)).filter((d): d is DrillResult => d !== undefined);
    const rel = join('reports', `${entry.id}.md`);
    row.report = rel;
    mkdirSync(join(out, 'reports'), { recursive: true });
    const argsOf = (d: DrillResult) => {
      const call = entry.calls.find((c) => d.scenario === `${entry.id}-${c.tool.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`);
      return call ? call.args : null;
    };
    writeFileSync(join(out, rel), redact(maintainerReport(entry, row, leads, argsOf), envSecrets(entry.secrets)));
  }
  return row;
}

/** A reason on one line (a zod issue list is many), cut short: the table cell and the progress line. */
function firstLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

export function writeTable(table: SurveyTable, out: string): void {
  writeFileSync(join(out, SURVEY_FILES.json), `${JSON.stringify(table, null, 2)}\n`);
  writeFileSync(
    join(out, SURVEY_FILES.markdown),
    `# crash-drill survey\n\n${tableMarkdown(table)}\n\n## Findings\n\n${findingsMarkdown(table)}\n\n## The servers\n\n${serversMarkdown(table)}\n`,
  );
  writeFileSync(join(out, SURVEY_FILES.html), tableHtml(table));
}

export function writeEcosystem(table: SurveyTable, file: string, how: string): void {
  const date = new Date().toISOString().slice(0, 10);
  const text = [
    '# The ecosystem table',
    '',
    `${how} (harness/survey/run-survey.ts) on ${date} from ${table.catalog}; do not edit by hand.`,
    `Each published server was installed at the pinned version below from its registry and drilled where only loopback exists,`,
    `under each client profile (docs/client-profiles.md), at idle, after each safe call's response, and where a call starts a`,
    `child, in crash, close and stop, and abandon in a column of its own where a profile abandons a server. How to read a`,
    `cell and how the survey works: docs/survey.md. Each cell's evidence,`,
    `diagnosis and maintainer's report are in the report folder of the run (survey.md there links them); the repository keeps none.`,
    '',
    tableMarkdown(table, null),
    '',
    '## Findings',
    '',
    findingsMarkdown(table, null),
    '',
    '## The servers',
    '',
    serversMarkdown(table),
    '',
  ].join('\n');
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, text);
}
