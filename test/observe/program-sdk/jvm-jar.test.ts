/**
 * The JVM program's SDK, named from its command line and jars: the Java fakes built by
 * fake-servers/java/build.sh in each form a JVM server is run in (a launcher jar whose Class-Path
 * names the fat jar, the fat jar on -cp, the SDK as jars of their own behind a `lib/*` wildcard),
 * jars made here from them (the SDK inside a Spring Boot-style jar, stored and deflated; the SDK's
 * classes without pom.properties; a launch script in front of the zip; ZIP64 records), and jars and
 * command lines with no SDK or nothing to read.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jvmMcpSdk } from '../../../harness/observe/program-sdk/jvm-mcp-sdk.js';
import { FAT_JAR, JAVA_BIN, javaFake, javaFakesSuite, THIN_JAR, THIN_LIB } from '../../java-sdk/support/java-fakes.js';
import { tempDir } from '../../support/temp-dir.js';

const built = javaFakesSuite('test/observe/program-sdk/jvm-jar.test.ts');
const G = 'io.modelcontextprotocol.sdk';
const POM = (artifact: string) => `META-INF/maven/${G}/${artifact}/pom.properties`;
/** The SDK's three jars (mcp pulls mcp-core and mcp-json-jackson3), as found in one jar. */
const inFatJar = (jar: string) =>
  ['mcp', 'mcp-json-jackson3', 'mcp-core'].map((a) => ({ sdk: `${G}:${a}`, version: '2.2.0', jar, from: 'pom.properties', entry: POM(a) }));

/**
 * The JDK's jar tool: the jars made here are made as any JVM project makes them. Its JVM keeps no
 * performance file (-J-XX:-UsePerfData), so it makes no /tmp/hsperfdata_<user> (test/final/).
 */
function jarTool(cwd: string, ...args: string[]): void {
  const run = spawnSync('jar', ['-J-XX:-UsePerfData', ...args], { cwd, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

describe.skipIf(!built)('the JVM program reader on the Java fakes', () => {
  it('java -jar <behaviour>.jar: follows the manifest Class-Path to the fat jar and names the SDK there', () => {
    const r = jvmMcpSdk(['java', '-jar', 'slow-tool.jar'], JAVA_BIN);
    expect(r.sdks).toEqual(inFatJar(FAT_JAR));
    expect(r.reason === null && r.jars).toEqual([javaFake('slow-tool'), FAT_JAR]);
  });

  it('java -cp <fat jar> <main class>: the same, options before the class path skipped', () => {
    const r = jvmMcpSdk(
      ['/usr/bin/java', '-Xmx64m', '-Dx=y', '--add-opens', 'java.base/java.lang=ALL-UNNAMED', '-cp', FAT_JAR, 'dev.crashdrill.fakes.SlowTool', '-cp', 'x'],
      '/',
    );
    expect(r.sdks).toEqual(inFatJar(FAT_JAR));
  });

  it('the class path form: the SDK as jars of its own behind a lib/* wildcard, each named by its own pom.properties', () => {
    const r = jvmMcpSdk(['java', `--class-path=${THIN_JAR}:thin/lib/*`, 'dev.crashdrill.fakes.WellBehaved'], JAVA_BIN);
    expect(r.sdks).toEqual(
      ['mcp', 'mcp-core', 'mcp-json-jackson3'].map((a) => ({
        sdk: `${G}:${a}`,
        version: '2.2.0',
        jar: join(THIN_LIB, `${a}-2.2.0.jar`),
        from: 'pom.properties',
        entry: POM(a),
      })),
    );
    expect(r.reason === null && r.jars.length).toBe(16);
  });

  it('CLASSPATH when the command line gives none, JDK_JAVA_OPTIONS, and @argfiles as the launcher reads them', () => {
    expect(jvmMcpSdk(['java', 'dev.crashdrill.fakes.WellBehaved'], '/', { CLASSPATH: FAT_JAR }).sdks).toEqual(inFatJar(FAT_JAR));
    expect(jvmMcpSdk(['java', 'dev.crashdrill.fakes.WellBehaved'], '/', { JDK_JAVA_OPTIONS: `-Xss1m -cp '${FAT_JAR}'` }).sdks).toEqual(inFatJar(FAT_JAR));
    const dir = tempDir('crash-drill-jvm-');
    writeFileSync(join(dir, 'args'), `-Xss1m\n"-cp" ${FAT_JAR}\n`);
    expect(jvmMcpSdk(['java', '@args', 'dev.crashdrill.fakes.WellBehaved'], dir).sdks).toEqual(inFatJar(FAT_JAR));
  });

  it('a jar without the SDK, alone or beside a missing jar and a class folder: says so', () => {
    expect(jvmMcpSdk(['java', '-cp', THIN_JAR, 'Main'], '/')).toEqual({
      sdks: [],
      reason: 'java (main class) Main: no MCP SDK among the 1 Maven artifacts of its 1 jar',
    });
    const reactor = join(THIN_LIB, 'reactor-core-3.9.0-RC1.jar');
    expect(jvmMcpSdk(['java', '-cp', `${reactor}:gone.jar:${THIN_LIB}`, 'Main'], '/tmp').reason).toBe(
      `java (main class) Main: no MCP SDK among the 0 Maven artifacts of its 1 jar; not read: /tmp/gone.jar (not found), ${THIN_LIB} (a class folder, not a jar: not read)`,
    );
  });

  it('the SDK inside a jar (Spring Boot BOOT-INF/lib/), stored and deflated', () => {
    for (const store of [true, false]) {
      const dir = tempDir('crash-drill-jvm-');
      mkdirSync(join(dir, 'BOOT-INF/lib'), { recursive: true });
      copyFileSync(join(THIN_LIB, 'mcp-core-2.2.0.jar'), join(dir, 'BOOT-INF/lib/mcp-core-2.2.0.jar'));
      jarTool(dir, '--create', '--file', 'app.jar', ...(store ? ['--no-compress'] : []), 'BOOT-INF');
      expect(jvmMcpSdk(['java', '-jar', 'app.jar'], dir).sdks).toEqual([
        {
          sdk: `${G}:mcp-core`,
          version: '2.2.0',
          jar: join(dir, 'app.jar'),
          from: 'pom.properties',
          entry: `BOOT-INF/lib/mcp-core-2.2.0.jar!/${POM('mcp-core')}`,
        },
      ]);
    }
  });

  it('the SDK classes without pom.properties: the version from the manifest, else the file name, else unknown', () => {
    const dir = tempDir('crash-drill-jvm-');
    mkdirSync(join(dir, 'x'));
    jarTool(join(dir, 'x'), '--extract', '--file', join(THIN_LIB, 'mcp-core-2.2.0.jar'));
    rmSync(join(dir, 'x/META-INF/maven'), { recursive: true });
    jarTool(dir, '--create', '--file', 'stripped.jar', '--no-manifest', '-C', 'x', '.');
    expect(jvmMcpSdk(['java', '-cp', 'stripped.jar', 'M'], dir).sdks).toEqual([
      { sdk: `${G}:mcp-core`, version: '2.2.0', jar: join(dir, 'stripped.jar'), from: 'manifest', entry: 'META-INF/MANIFEST.MF' },
    ]);
    rmSync(join(dir, 'x/META-INF/MANIFEST.MF'));
    jarTool(dir, '--create', '--file', 'mcp-core-2.2.0.jar', '--no-manifest', '-C', 'x', '.');
    jarTool(dir, '--create', '--file', 'sdk.jar', '--no-manifest', '-C', 'x', '.');
    expect(jvmMcpSdk(['java', '-cp', 'mcp-core-2.2.0.jar', 'M'], dir).sdks).toEqual([
      { sdk: `${G}:mcp-core`, version: '2.2.0', jar: join(dir, 'mcp-core-2.2.0.jar'), from: 'file name', entry: null },
    ]);
    expect(jvmMcpSdk(['java', '-cp', 'sdk.jar', 'M'], dir).sdks).toEqual([
      { sdk: G, version: null, jar: join(dir, 'sdk.jar'), from: 'classes only', entry: null },
    ]);
  });

  it('a launch script in front of the zip (a fully executable jar), as Java itself reads it', () => {
    const dir = tempDir('crash-drill-jvm-');
    const jar = join(dir, 'app.jar');
    writeFileSync(jar, Buffer.concat([Buffer.from('#!/bin/sh\nexec java -jar "$0" "$@"\n'), readFileSync(FAT_JAR)]));
    expect(jvmMcpSdk(['java', '-jar', jar], '/').sdks).toEqual(inFatJar(jar));
  });
});

const python = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!python)('ZIP64 records', () => {
  it('reads a jar whose sizes, offsets and count are in ZIP64 records (Python zipfile with its limits at zero)', () => {
    const dir = tempDir('crash-drill-jvm-');
    // Every entry's sizes past the limit, and the entry count too: ZIP64 extra fields in the
    // central directory, a ZIP64 end record and its locator (APPNOTE.TXT 4.3.14-4.3.15, 4.5.3).
    const script = [
      'import sys, zipfile',
      'zipfile.ZIP64_LIMIT = 0',
      'zipfile.ZIP_FILECOUNT_LIMIT = 0',
      'with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:',
      '    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\\r\\nMain-Class: M\\r\\n")',
      `    z.writestr("${POM('mcp')}", "artifactId=mcp\\ngroupId=${G}\\nversion=2.2.0\\n")`,
    ].join('\n');
    const run = spawnSync('python3', ['-c', script, join(dir, 'z.jar')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const bytes = readFileSync(join(dir, 'z.jar'));
    expect(bytes.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBeGreaterThan(0); // the ZIP64 locator is there
    expect(jvmMcpSdk(['java', '-jar', 'z.jar'], dir).sdks).toEqual([
      { sdk: `${G}:mcp`, version: '2.2.0', jar: join(dir, 'z.jar'), from: 'pom.properties', entry: POM('mcp') },
    ]);
  });
});

describe('command lines and files the JVM reader cannot use', () => {
  it('says why: not java, no main class, -jar without a file, an argfile that is not there', () => {
    expect(jvmMcpSdk(['node', 'server.js'], '/').reason).toBe('not a java command line: node');
    expect(jvmMcpSdk(['java', '-version'], '/').reason).toBe('no main class, -jar or -m in the command line');
    expect(jvmMcpSdk(['java', '-jar'], '/').reason).toBe('-jar names no file');
    expect(jvmMcpSdk(['java', '@/nowhere/args', 'Main'], '/').reason).toMatch(/^the argument file \/nowhere\/args could not be read: ENOENT/);
  });

  it('says why: a -jar file that is not a zip, and one that is not there', () => {
    const dir = tempDir('crash-drill-jvm-');
    writeFileSync(join(dir, 'server.jar'), 'not a zip\n');
    expect(jvmMcpSdk(['java', '-jar', 'server.jar'], dir).reason).toBe(
      `java -jar ${join(dir, 'server.jar')}: no MCP SDK among the 0 Maven artifacts of its 0 jars; not read: ${join(dir, 'server.jar')} (could not be read: not a zip archive (no end of central directory record))`,
    );
    expect(jvmMcpSdk(['java', '-jar', 'gone.jar'], dir).reason).toBe(
      `java -jar ${join(dir, 'gone.jar')}: no MCP SDK among the 0 Maven artifacts of its 0 jars; not read: ${join(dir, 'gone.jar')} (not found)`,
    );
  });
});
