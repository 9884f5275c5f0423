/**
 * Which MCP SDK a JVM program runs (group io.modelcontextprotocol.sdk), from its command line and
 * jars (jvm-command-line.ts, jvm-jar.ts): by pom.properties, else the manifest's Bundle-Version,
 * else the file name.
 */
import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { type JarMetadata, readJarMetadata } from './jvm-jar.js';
import { type JvmCommand, parseJvmCommand } from './jvm-command-line.js';
import type { ProgramSdk } from './types.js';

/** The JVM MCP SDKs: Maven group, the package folder of their classes, and a folder below it that is another SDK's. */
export const JVM_MCP_SDKS = [
  { groupId: 'io.modelcontextprotocol.sdk', classes: 'io/modelcontextprotocol/', not: 'io/modelcontextprotocol/kotlin/' },
  // The Kotlin SDK (modelcontextprotocol/kotlin-sdk): group io.modelcontextprotocol, artifacts kotlin-sdk, kotlin-sdk-server, ...
  { groupId: 'io.modelcontextprotocol', classes: 'io/modelcontextprotocol/kotlin/', not: null },
] as const;

export interface JvmSdkArtifact {
  /** groupId:artifactId, e.g. io.modelcontextprotocol.sdk:mcp-core. */
  sdk: string;
  version: string | null;
  jar: string;
  /** How the version was read. */
  from: 'pom.properties' | 'manifest' | 'file name' | 'classes only';
  /** The entry read, e.g. META-INF/maven/io.modelcontextprotocol.sdk/mcp/pom.properties. */
  entry: string | null;
}

export interface UnreadJar {
  jar: string;
  reason: string;
}

export type JvmMcpSdk = { sdks: JvmSdkArtifact[]; command: JvmCommand; jars: string[]; unread: UnreadJar[]; reason: null } | { sdks: []; reason: string };

export function jvmMcpSdk(argv: string[], cwd: string, env: Record<string, string | undefined> = {}): JvmMcpSdk {
  const parsed = parseJvmCommand(argv, cwd, env);
  if (parsed.command === null) return { sdks: [], reason: parsed.reason };
  const { command } = parsed;
  const queue = [...command.entries];
  const jars: string[] = [];
  const unread: UnreadJar[] = [];
  const sdks: JvmSdkArtifact[] = [];
  let artifacts = 0;
  for (let i = 0; i < queue.length; i++) {
    const jar = queue[i];
    if (jars.includes(jar) || unread.some((u) => u.jar === jar)) continue;
    const why = notAJar(jar);
    if (why) {
      unread.push({ jar, reason: why });
      continue;
    }
    let meta: JarMetadata;
    try {
      meta = readJarMetadata(jar);
    } catch (err) {
      unread.push({ jar, reason: `could not be read: ${(err as Error).message}` });
      continue;
    }
    jars.push(jar);
    artifacts += meta.artifacts.length;
    // java -jar: the jar's own Class-Path, relative to its folder, joins the class path.
    if (command.form === 'jar' && i === 0) queue.push(...classPathOf(jar, meta));
    sdks.push(...sdkArtifacts(jar, meta));
  }
  if (sdks.length > 0) return { sdks, command, jars, unread, reason: null };
  const skipped = unread.length ? `; not read: ${unread.map((u) => `${u.jar} (${u.reason})`).join(', ')}` : '';
  return {
    sdks: [],
    reason: `${describe(command)}: no MCP SDK among the ${artifacts} Maven artifacts of its ${jars.length} jar${jars.length === 1 ? '' : 's'}${skipped}`,
  };
}

function notAJar(path: string): string | null {
  if (!existsSync(path)) return 'not found';
  return statSync(path).isDirectory() ? 'a class folder, not a jar: not read' : null;
}

function classPathOf(jar: string, meta: JarMetadata): string[] {
  const dir = jar.slice(0, jar.length - basename(jar).length);
  return (meta.manifest['Class-Path'] ?? '')
    .split(' ')
    .filter(Boolean)
    .map((url) => `${dir}${decoded(url)}`);
}

/** Class-Path entries are relative URLs (%20 for a space); a malformed escape is taken as written. */
function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

function sdkArtifacts(jar: string, meta: JarMetadata): JvmSdkArtifact[] {
  const out: JvmSdkArtifact[] = [];
  for (const { groupId, classes, not } of JVM_MCP_SDKS) {
    const ours = (p: string) => p.startsWith(classes) && (not === null || !p.startsWith(not));
    const named = meta.artifacts.filter((a) => a.groupId === groupId);
    out.push(...named.map((a) => ({ sdk: `${a.groupId}:${a.artifactId}`, version: a.version, jar, from: 'pom.properties' as const, entry: a.entry })));
    for (const nested of meta.nestedNames) {
      const name = /^(.+?)-(\d[^/]*)\.jar$/.exec(basename(nested.entry));
      if (name && [...nested.packages].some(ours)) out.push({ sdk: `${groupId}:${name[1]}`, version: name[2], jar, from: 'file name', entry: nested.entry });
    }
    if (!out.some((a) => a.jar === jar && a.sdk.startsWith(`${groupId}:`)) && [...meta.packages].some(ours)) out.push(fromClasses(jar, meta, groupId));
  }
  return out;
}

/** The SDK's classes with no pom.properties (a jar built without them, or a stripped one). */
function fromClasses(jar: string, meta: JarMetadata, groupId: string): JvmSdkArtifact {
  const bundle = meta.manifest['Bundle-SymbolicName']?.split(';')[0];
  if (bundle?.startsWith(`${groupId}.`) && meta.manifest['Bundle-Version'])
    return {
      sdk: `${groupId}:${bundle.slice(groupId.length + 1)}`,
      version: meta.manifest['Bundle-Version'],
      jar,
      from: 'manifest',
      entry: 'META-INF/MANIFEST.MF',
    };
  const name = /^(.+?)-(\d[^/]*)\.jar$/.exec(basename(jar));
  if (name) return { sdk: `${groupId}:${name[1]}`, version: name[2], jar, from: 'file name', entry: null };
  return { sdk: groupId, version: null, jar, from: 'classes only', entry: null };
}

function describe(command: JvmCommand): string {
  if (command.form === 'jar') return `java -jar ${command.main}`;
  return `java ${command.form === 'module' ? '-m' : '(main class)'} ${command.main}`;
}

/** The same in the one shape every reader gives (types.ts); null when the command line is not a java one. */
export function jvmProgramSdk(argv: string[], cwd: string, env: Record<string, string | undefined> = {}): ProgramSdk | null {
  const read = jvmMcpSdk(argv, cwd, env);
  if (read.reason !== null) return /^not a java command line/.test(read.reason) ? null : { kind: 'jvm', runtimeVersion: null, sdks: [], reason: read.reason };
  const unread = read.unread.length > 0 ? `not read: ${read.unread.map((u) => `${u.jar} (${u.reason})`).join(', ')}` : null;
  const noVersion = read.sdks.filter((s) => s.version === null);
  return {
    kind: 'jvm',
    runtimeVersion: null,
    sdks: read.sdks.map((s) => ({ name: s.sdk, version: s.version, file: s.jar, from: s.from, note: s.entry })),
    reason:
      noVersion.length > 0
        ? `${noVersion.map((s) => s.jar).join(', ')}: the SDK's classes with no pom.properties, manifest version or versioned file name`
        : unread,
  };
}
