/**
 * The Java fake servers' jars (fake-servers/java/bin/, built by fake-servers/java/build.sh, which
 * fake-servers/build-all.sh and so .ci/run call). Missing, a file that calls `javaFakesSuite()`
 * skips with the reason, unless the build is required (test/support/built-binaries.ts).
 */
import { join } from 'node:path';
import { packageRoot } from '../../../harness/util/paths.js';
import { builtGroup } from '../../support/built-binaries.js';

/** The Java SDK version the fakes are built on (fake-servers/java/pom.xml, mcp.version). */
export const JAVA_SDK_VERSION = '2.2.0';
export const JAVA_BUILD = `java-sdk-v${JAVA_SDK_VERSION}`;
export const JAVA_BEHAVIOURS = [
  'well-behaved',
  'slow-tool',
  'ignores-cancel',
  'awaits-sampling',
  'leaks-child',
  'thread-keeps-alive',
  'writes-after-eof',
] as const;
export type JavaBehaviour = (typeof JAVA_BEHAVIOURS)[number];

export const JAVA_BIN = join(packageRoot(), 'fake-servers/java/bin');
/** Every class with its dependencies in one jar (maven-shade-plugin). */
export const FAT_JAR = join(JAVA_BIN, 'java-sdk-fakes.jar');
/** Our classes only; the SDK and the rest as jars of their own in thin/lib/. */
export const THIN_JAR = join(JAVA_BIN, 'thin/java-sdk-fakes-thin.jar');
export const THIN_LIB = join(JAVA_BIN, 'thin/lib');

/** A behaviour's launcher jar: Main-Class, and Class-Path naming java-sdk-fakes.jar. */
export function javaFake(behaviour: JavaBehaviour): string {
  return join(JAVA_BIN, `${behaviour}.jar`);
}

/** A behaviour's class-data archive (fake-servers/java/build.sh make_archives): made against its jar at this checkout's path. */
export function javaArchive(behaviour: JavaBehaviour): string {
  return join(JAVA_BIN, 'cds', `${behaviour}.jsa`);
}

/** `java`'s arguments for a behaviour, as test/java-sdk/scenarios/ write them: its jar, with its class-data archive. */
export function javaFakeArgs(behaviour: JavaBehaviour): string[] {
  return ['-XX:-UsePerfData', `-XX:SharedArchiveFile=${javaArchive(behaviour)}`, '-Xlog:cds*=off', '-jar', javaFake(behaviour)];
}

/** Call at the top of a test file: true when the jars are there, else false after printing why the file skips. */
export const javaFakesSuite = builtGroup({
  what: 'Java fake server',
  files: [...JAVA_BEHAVIOURS.map(javaFake), ...JAVA_BEHAVIOURS.map(javaArchive), FAT_JAR, THIN_JAR, join(THIN_LIB, `mcp-core-${JAVA_SDK_VERSION}.jar`)],
  buildWith: 'fake-servers/build-all.sh or fake-servers/java/build.sh; it needs a JDK 17, Maven and Maven Central once',
  requireEnv: 'CRASH_DRILL_REQUIRE_JAVA',
});
