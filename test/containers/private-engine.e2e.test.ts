/**
 * The private engine itself: it starts, runs a container from the offline image, and its
 * teardown leaves no container, no dockerd, no mount, no cgroup and no folder.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { identify } from '../../harness/observe/index.js';
import { cgroupDirs, engineUnavailable, mountsUnder, startPrivateEngine } from './support/private-engine.js';
import { NODE_IMAGE, buildNodeImage } from '../../fake-servers/containers/image.js';

const why = engineUnavailable();
if (why) console.warn(`[skip] test/containers/private-engine.e2e.test.ts: ${why}`);

describe.skipIf(why !== null && process.env.CRASH_DRILL_REQUIRE_ENGINE !== '1')('private engine', () => {
  it('runs a container from an image built offline, then leaves nothing behind', async () => {
    const started = await startPrivateEngine();
    expect(started.skip).toBeNull();
    const engine = started.engine!;
    try {
      expect(engine.socket.length).toBeLessThan(108);
      buildNodeImage({ tag: NODE_IMAGE, env: engine.env });
      const out = await engine.docker(['run', '--rm', '-i', '--pull', 'never', NODE_IMAGE, '/usr/bin/node', '-e', 'console.log(process.version)']);
      expect(out.trim()).toBe(process.version);
      const sleeper = (await engine.docker(['run', '-d', '--pull', 'never', NODE_IMAGE, '/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'])).trim();
      expect(sleeper).toMatch(/^[0-9a-f]{64}$/);
      expect(cgroupDirs(engine.cgroupParent).length).toBeGreaterThan(0);
    } finally {
      await engine.stop();
    }
    expect(identify(engine.dockerd.pid)?.startTime === engine.dockerd.startTime).toBe(false);
    expect(mountsUnder(engine.dir)).toEqual([]);
    expect(cgroupDirs(engine.cgroupParent)).toEqual([]);
    expect(existsSync(engine.dir)).toBe(false);
  }, 120_000);
});
