/**
 * The Java fakes' class-data archives (fake-servers/java/build.sh make_archives): each launcher's
 * archive is taken by a JVM that names its jars as the drills do (by this checkout's path), and a
 * JVM that names the same jars elsewhere is refused it (-Xshare:on makes a refused archive an
 * error, where the drills' -Xshare:auto would start without it): so the drills start from their
 * archives, and this check can fail.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { FAT_JAR, JAVA_BEHAVIOURS, javaArchive, javaFake, javaFakesSuite } from './support/java-fakes.js';

const built = javaFakesSuite('test/java-sdk/archives.e2e.test.ts');

/** `java -Xshare:on` with the archive and the class path a launcher jar gives (the jar, then the fat jar its Class-Path names). */
function share(archive: string, classPath: string[]) {
  return spawnSync('java', ['-XX:-UsePerfData', '-Xshare:on', `-XX:SharedArchiveFile=${archive}`, '-cp', classPath.join(':'), '-version'], {
    encoding: 'utf8',
  });
}

describe.skipIf(!built)("the Java fakes' class-data archives", () => {
  it('each is taken with its jars where the drills name them', () => {
    for (const behaviour of JAVA_BEHAVIOURS) {
      const run = share(javaArchive(behaviour), [javaFake(behaviour), FAT_JAR]);
      expect(run.status, `${behaviour}: ${run.stderr}`).toBe(0);
      expect(run.stderr, behaviour).toMatch(/sharing\)/);
    }
  });

  it('is refused for the same jars at another path', () => {
    const dir = tempDir('crash-drill-java-archive-');
    for (const jar of [javaFake('well-behaved'), FAT_JAR]) copyFileSync(jar, join(dir, basename(jar)));
    const run = share(javaArchive('well-behaved'), [join(dir, 'well-behaved.jar'), join(dir, basename(FAT_JAR))]);
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/shared class paths mismatch/);
  });
});
