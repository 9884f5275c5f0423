/**
 * The drill's scenario with its templates filled in (the drill id, its temp folder, the remote
 * and a session's token), and the environment its server gets. The recovery retry renders it
 * again with its own session's token.
 */
import { envTemplateNames, renderScenario, type Scenario } from '../../config/index.js';
import { interceptEnv } from '../../preload/index.js';
import type { PlannedDrill } from '../../plan/types.js';
import type { Extensions } from './extension.js';
import type { EvidenceRecorder } from './recorder.js';
import type { RemoteLink } from './remote-link.js';
import { suiteEnv } from '../../observe/index.js';
import { remoteEnv } from './remote-env.js';
import { launcherEnv } from './launcher-env.js';
import { subjectFilePaths, writeSubjectFiles } from './subject-files.js';
import { activityFileFor, type Generation } from './activity-watch.js';
import { inNetwork } from './drill-network.js';
import type { LoopbackNetwork } from '../network/namespace.js';

export interface RenderContext {
  drill: PlannedDrill;
  drillId: string;
  rec: EvidenceRecorder;
  extensions: Extensions;
  tmp: string;
  link: RemoteLink;
  /** The drill's loopback-only network (`network: loopback`): the server's command enters it. */
  network?: LoopbackNetwork;
}

/**
 * The scenario rendered for one session's token, its files written; extensions may change it (and
 * record how). Each generation's server gets its own activity record file: `{{activity.file}}`,
 * and CRASH_DRILL_ACTIVITY_FILE in its environment, set over the scenario's own env like the
 * drill's other variables (activity-watch.ts reads it there).
 */
export function renderFor(ctx: RenderContext, token: string, generation: Generation = 'drill'): Scenario {
  const { drill, rec, link } = ctx;
  // A value read through {{env.NAME}} is most often a credential (init --from-client writes them): never in the evidence.
  for (const name of envTemplateNames(drill.scenario)) {
    const value = process.env[name];
    if (value) rec.addSecret(value, `env.${name}`);
  }
  const files = subjectFilePaths(Object.keys(drill.scenario.subject.files ?? {}), ctx.tmp);
  const rendered = renderScenario(drill.scenario, {
    runId: ctx.drillId,
    tmp: ctx.tmp,
    scenarioDir: drill.scenario.dir,
    remoteUrl: link.url,
    remoteApiKey: link.apiKey,
    sessionToken: token,
    remoteHttpsUrl: link.trustFiles ? link.httpsUrl : undefined,
    remoteCaFile: link.trustFiles?.caFile,
    remoteCaBase64: link.trustFiles ? link.remote.ca?.certBase64 : undefined,
    files,
    activityFile: activityFileFor(ctx.tmp, generation),
  });
  writeSubjectFiles(rendered.subject.files, files);
  rendered.subject.env = { ...rendered.subject.env, CRASH_DRILL_ACTIVITY_FILE: activityFileFor(ctx.tmp, generation) };
  // After the extensions: a container engine's CLI is recognised by its own command line.
  return inNetwork(ctx.extensions.render(rendered), ctx.network);
}

/** The subject environment (docs/design.md, "Contracts"): the drill id, the remote and the session's token. */
export function subjectEnv(scenario: Scenario, drillId: string, link: RemoteLink, token: string): Record<string, string> {
  const intercept = scenario.remote.intercept.length > 0 ? interceptEnv(scenario.remote.intercept, scenario.subject.env.NODE_OPTIONS) : {};
  return {
    ...launcherEnv(scenario.subject),
    ...scenario.subject.env,
    ...remoteEnv(scenario, link),
    ...intercept,
    CRASH_DRILL_RUN: drillId,
    ...suiteEnv(),
    CRASH_DRILL_REMOTE_URL: link.url,
    CRASH_DRILL_TOKEN: token,
  };
}
