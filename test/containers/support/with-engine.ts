/**
 * One private engine per test file. Files call `engineSuite()` at the top: when no engine can
 * be started here, every test of the file is skipped and the reason is printed once (plain
 * `npm test` on a machine without docker.io still passes). With CRASH_DRILL_REQUIRE_ENGINE=1
 * (.ci/run sets it after installing docker.io) a missing engine fails instead of skipping.
 */
import { afterAll, beforeAll } from 'vitest';
import { NODE_IMAGE, buildNodeImage } from '../../../fake-servers/containers/image.js';
import { missingPrerequisite } from '../../support/prerequisite.js';
import { engineUnavailable, startPrivateEngine, type PrivateEngine } from './private-engine.js';

export type EngineSuite = {
  /** Why the file is skipped, or null when it runs. */
  skip: string | null;
  engine(): PrivateEngine;
  image: string;
};

const required = process.env.CRASH_DRILL_REQUIRE_ENGINE === '1';

export function engineSuite(file: string, opts: { image?: boolean } = {}): EngineSuite {
  const why = engineUnavailable();
  let skip = why;
  if (why) missingPrerequisite(file, why, { test: 'has a container engine', requiredBy: 'CRASH_DRILL_REQUIRE_ENGINE=1', required });
  let engine: PrivateEngine | null = null;
  beforeAll(async () => {
    if (skip) return;
    const started = await startPrivateEngine();
    if (started.skip !== null) {
      if (required) throw new Error(`the private engine did not start: ${started.skip}`);
      skip = started.skip;
      console.warn(`[skip] ${file}: container tests skipped: ${started.skip}`);
      return;
    }
    engine = started.engine;
    if (opts.image !== false) buildNodeImage({ tag: NODE_IMAGE, env: engine.env });
  }, 120_000);
  afterAll(async () => {
    await engine?.stop();
  }, 60_000);
  return {
    get skip() {
      return skip;
    },
    engine() {
      if (!engine) throw new Error('no private engine (skipped)');
      return engine;
    },
    image: NODE_IMAGE,
  };
}
