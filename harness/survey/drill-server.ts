/**
 * The survey's worker for one server: lists its tools with init's code and writes and drills its
 * scenarios under every profile, each on the survey's network (a loopback-only namespace per
 * listing and per drill unless `host`: docs/network.md), and leaves `server.json`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileName } from '../client-profiles/profiles.js';
import type { CatalogEntry, NetworkChoice } from '../config/index.js';
import { ListToolsError, listServerTools } from '../init/list-tools.js';
import { cpuPoolClient, LocalCpuPool, takeSlot } from '../run/cpu-pool.js';
import { runDrills } from '../run/run-drills.js';
import { packageRoot } from '../util/paths.js';
import { npmCacheDir } from './cache.js';
import { abandoningProfiles, stopAbandons } from './cells.js';
import { fill, prepareNeeds, serverWords, withoutDrillRemote } from './needs.js';
import { scenariosDir, SURVEY_MODES, writeServerScenarios } from './server-scenarios.js';

export interface WorkerSpec {
  entry: CatalogEntry;
  program: string | null;
  serverDir: string;
  cacheRoot: string;
  profiles: ProfileName[];
  timeoutMs: number;
  /** The scratch folder for the entry's needs: the survey makes it and removes it once the worker has ended, however it ended. */
  scratch: string;
  network: NetworkChoice;
  /** The CPU slots of this server's drills where the survey shares none: the cores, split among the servers drilled at once. */
  cpuSlots: number;
  /** The survey's pool of CPU slots (harness/run/cpu-pool.ts, a Unix socket), shared by the servers drilled at once; null: `cpuSlots` of its own. */
  cpuPool: string | null;
}

/** What the worker found, for the table (no secret in it: names only). */
export interface ServerOutcome {
  id: string;
  status: 'drilled' | 'could-not-start';
  reason: string | null;
  stderrTail: string | null;
  tools: string[];
  missingTools: string[];
  command: string[];
}

export const SERVER_FILE = 'server.json';
export const RUN_DIR = 'run';
/** The run of the `abandon` mode, under the profiles that abandon and whose stop is not already the abandon. */
export const ABANDON_RUN_DIR = 'run-abandon';

export async function drillServer(spec: WorkerSpec, signal?: AbortSignal): Promise<ServerOutcome> {
  const { entry } = spec;
  const prepared = prepareNeeds(entry, spec.scratch);
  // The survey's CPU slots (harness/run/cpu-pool.ts): the listing and both runs draw on them.
  const cpuPool = spec.cpuPool ? await cpuPoolClient(spec.cpuPool) : new LocalCpuPool(spec.cpuSlots);
  try {
    const values = prepared.values;
    const words = serverWords(entry, spec.program, values);
    const plain: Record<string, string> = Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, fill(v, values)]));
    if (entry.registry === 'npm') {
      // npx takes the installed package from the survey's npm cache and never asks the registry.
      Object.assign(plain, { npm_config_cache: npmCacheDir(spec.cacheRoot), npm_config_offline: 'true', npm_config_update_notifier: 'false' });
    }
    // Secrets reach the server through the worker's environment and `{{env.NAME}}`: never written.
    for (const [k, v] of Object.entries(entry.secrets)) process.env[k] = v;
    const subjectEnv = { ...plain, ...Object.fromEntries(Object.keys(entry.secrets).map((k) => [k, `{{env.${k}}}`])) };
    const server = { command: words[0], args: words.slice(1), cwd: values.folder, env: { ...plain, ...entry.secrets } };
    const listed = {
      ...server,
      args: server.args.map(withoutDrillRemote),
      env: Object.fromEntries(Object.entries(server.env).map(([k, v]) => [k, withoutDrillRemote(v)])),
    };
    const base = { id: entry.id, command: words, missingTools: [] as string[] };
    let tools;
    // Listing starts the server: CPU work, so it holds a slot of the pool as a starting drill does.
    try {
      await takeSlot(cpuPool);
      try {
        ({ tools } = await listServerTools(listed, spec.timeoutMs, { network: spec.network }));
      } finally {
        cpuPool.give();
      }
    } catch (error) {
      if (!(error instanceof ListToolsError)) throw error;
      // The scratch folder's name is new each run: the table says {{folder}}, so two runs read the same;
      // the cache's place is the surveying user's home: {{cache}}, so the table is the same for every user.
      const placeholders = (text: string) =>
        text.replaceAll(values.folder, '{{folder}}').replaceAll(prepared.scratch, '{{scratch}}').replaceAll(spec.cacheRoot, '{{cache}}');
      return {
        ...base,
        status: 'could-not-start',
        reason: placeholders(error.message),
        stderrTail: error.stderrTail ? placeholders(error.stderrTail) : null,
        tools: [],
      };
    }
    if (tools.length === 0) return { ...base, status: 'could-not-start', reason: 'it lists no tools', stderrTail: null, tools: [] };
    const { missingTools } = writeServerScenarios({
      entry,
      tools,
      server,
      subjectEnv,
      dir: scenariosDir(spec.serverDir),
      projectDir: packageRoot(),
      values,
    });
    // The two runs at once, on one pool of CPU slots: the abandon drills mostly wait, beside the others.
    const abandonRun = abandoningProfiles(spec.profiles).filter((p) => !stopAbandons(p));
    const runs = await Promise.allSettled([
      runDrills({
        scenarios: [scenariosDir(spec.serverDir)],
        out: join(spec.serverDir, RUN_DIR),
        modes: [...SURVEY_MODES],
        clientProfiles: spec.profiles,
        network: spec.network,
        reporters: ['json', 'html'],
        cpuSlots: spec.cpuSlots,
        cpuPool,
        // A stop drill whose close drill's client quit with nothing left to reach is that drill (harness/plan/by-evidence.ts).
        notRepeatedByEvidence: true,
        signal,
      }),
      abandonRun.length > 0
        ? runDrills({
            scenarios: [scenariosDir(spec.serverDir)],
            out: join(spec.serverDir, ABANDON_RUN_DIR),
            modes: ['abandon'],
            clientProfiles: abandonRun,
            reporters: ['json', 'html'],
            network: spec.network,
            cpuSlots: spec.cpuSlots,
            cpuPool,
            signal,
          })
        : null,
    ]);
    // Both ended (each contains its own drills), then a harness failure of either is thrown.
    for (const run of runs) if (run.status === 'rejected') throw run.reason;
    return { ...base, status: 'drilled', reason: null, stderrTail: null, tools: tools.map((t) => t.name), missingTools };
  } finally {
    if ('close' in cpuPool) cpuPool.close();
    rmSync(prepared.scratch, { recursive: true, force: true });
  }
}

/** The worker's entry (worker-main.ts, the spec's JSON read from stdin): writes server.json and returns 0; a harness error throws. */
export async function workerMain(specText: string, signal?: AbortSignal): Promise<number> {
  const spec = JSON.parse(specText) as WorkerSpec;
  mkdirSync(spec.serverDir, { recursive: true });
  const outcome = await drillServer(spec, signal);
  // An interrupted server's drills are not all there: no server.json, so no row is made of them.
  if (signal?.aborted) return 1;
  writeFileSync(join(spec.serverDir, SERVER_FILE), `${JSON.stringify(outcome, null, 2)}\n`);
  return 0;
}
