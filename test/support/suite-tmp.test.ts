/**
 * The suite's teardown removes the run registries it made in /tmp, but not one another harness
 * beside the suite made meanwhile and still runs in: that harness's drills would be left
 * unregistered, stale to every sweep.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRY_ENV, registerRun } from '../../harness/registry/index.js';
import { newRunId } from '../../harness/observe/index.js';
import { isRegistry, removeRegistries } from './suite-tmp.js';

/** A registry name no user has: uids stop at 2^32 - 2. */
function unusedRegistry(): string {
  return `crash-drill-${4_300_000_000 + Math.floor(Math.random() * 1_000_000)}`;
}

const made: string[] = [];
afterEach(() => {
  for (const name of made.splice(0)) rmSync(join('/tmp', name), { recursive: true, force: true });
});

function makeRegistry(): string {
  const name = unusedRegistry();
  made.push(name);
  mkdirSync(join('/tmp', name, 'runs'), { recursive: true, mode: 0o700 });
  return name;
}

describe('removeRegistries', () => {
  it('removes a registry that holds no registration', () => {
    const name = makeRegistry();
    expect(isRegistry(name)).toBe(true);
    removeRegistries([name]);
    expect(existsSync(join('/tmp', name))).toBe(false);
  });

  it("keeps one that holds a harness's live registration, and the registration in it", () => {
    const name = makeRegistry();
    const was = process.env[REGISTRY_ENV];
    process.env[REGISTRY_ENV] = join('/tmp', name);
    const runId = newRunId();
    const registration = registerRun(runId);
    try {
      removeRegistries([name]);
      expect(existsSync(join('/tmp', name, 'runs', `${runId}.json`))).toBe(true);
    } finally {
      registration.unregister();
      if (was === undefined) delete process.env[REGISTRY_ENV];
      else process.env[REGISTRY_ENV] = was;
    }
    removeRegistries([name]);
    expect(existsSync(join('/tmp', name))).toBe(false);
  });
});
