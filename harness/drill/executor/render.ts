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
import { ownHarnessEnv } from '../../observe/run-ids.js';

export interface RenderContext {
  drill: PlannedDrill;
  drillId: string;
  rec: EvidenceRecorder;
  extensions: Extensions;
  tmp: string;
  link: RemoteLink;
}

/** The scenario rendered for one session's token; extensions may change it (and record how). */
export function renderFor(ctx: RenderContext, token: string): Scenario {
  const { drill, rec, link } = ctx;
  // A value read through {{env.NAME}} is most often a credential (init --from-client writes them): never in the evidence.
  for (const name of envTemplateNames(drill.scenario)) {
    const value = process.env[name];
    if (value) rec.addSecret(value);
  }
  return ctx.extensions.render(
    renderScenario(drill.scenario, {
      runId: ctx.drillId,
      tmp: ctx.tmp,
      scenarioDir: drill.scenario.dir,
      remoteUrl: link.url,
      remoteApiKey: link.apiKey,
      sessionToken: token,
    }),
  );
}

/** The subject environment (docs/design.md, "Contracts"): the drill id, the remote and the session's token. */
export function subjectEnv(scenario: Scenario, drillId: string, link: RemoteLink, token: string): Record<string, string> {
  const intercept = scenario.remote.intercept.length > 0 ? interceptEnv(scenario.remote.intercept, scenario.subject.env.NODE_OPTIONS) : {};
  return { ...scenario.subject.env, ...intercept, CRASH_DRILL_RUN: drillId, ...ownHarnessEnv(), CRASH_DRILL_REMOTE_URL: link.url, CRASH_DRILL_TOKEN: token };
}
