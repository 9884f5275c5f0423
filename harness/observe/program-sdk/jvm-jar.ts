/**
 * What a jar says about itself: its manifest's main attributes (the JAR File Specification) and
 * every Maven artifact its `META-INF/maven/.../pom.properties` names (kept in fat jars by the
 * shade and assembly plugins); nested jars are read one level down, else named by file name.
 */
import { type ByteSource, bufferSource, withFileSource } from './byte-source.js';
import { readEntry, type ZipEntry, zipEntries } from './zip-archive.js';

export interface MavenArtifact {
  groupId: string;
  artifactId: string;
  version: string;
  /** Where it was read: `META-INF/maven/.../pom.properties`, or `BOOT-INF/lib/x.jar!/META-INF/...`. */
  entry: string;
}

export interface NestedJarName {
  /** The entry, e.g. BOOT-INF/lib/mcp-core-2.2.0.jar, which named no artifact of its own. */
  entry: string;
  /** Its class folders (none when it could not be read). */
  packages: Set<string>;
}

export interface JarMetadata {
  manifest: Record<string, string>;
  artifacts: MavenArtifact[];
  /** Nested jars whose pom.properties could not be read or were absent: their names only. */
  nestedNames: NestedJarName[];
  /** This jar's own class folders, e.g. `io/modelcontextprotocol/` when the SDK's classes are in it. */
  packages: Set<string>;
  entryCount: number;
}

const POM_PROPERTIES = /^META-INF\/maven\/[^/]+\/[^/]+\/pom\.properties$/;

export function readJarMetadata(file: string): JarMetadata {
  return withFileSource(file, (source) => readArchive(source, '', true));
}

function readArchive(source: ByteSource, prefix: string, descend: boolean): JarMetadata {
  const entries = zipEntries(source);
  const text = (e: ZipEntry) => readEntry(source, e).toString('utf8');
  const manifestEntry = entries.find((e) => e.name.toUpperCase() === 'META-INF/MANIFEST.MF');
  const out: JarMetadata = {
    manifest: manifestEntry ? parseManifest(text(manifestEntry)) : {},
    artifacts: [],
    nestedNames: [],
    packages: new Set(),
    entryCount: entries.length,
  };
  for (const e of entries) {
    if (POM_PROPERTIES.test(e.name)) {
      const p = parseProperties(text(e));
      if (p.groupId && p.artifactId && p.version)
        out.artifacts.push({ groupId: p.groupId, artifactId: p.artifactId, version: p.version, entry: prefix + e.name });
    } else if (e.name.endsWith('.class')) {
      const slash = e.name.lastIndexOf('/');
      if (slash > 0) out.packages.add(e.name.slice(0, slash + 1));
    } else if (descend && e.name.endsWith('.jar')) {
      let nested: JarMetadata | null = null;
      try {
        nested = readArchive(bufferSource(readEntry(source, e)), `${prefix}${e.name}!/`, false);
      } catch {
        nested = null;
      }
      if (nested?.artifacts.length) out.artifacts.push(...nested.artifacts);
      else out.nestedNames.push({ entry: prefix + e.name, packages: nested?.packages ?? new Set() });
    }
  }
  return out;
}

export function parseManifest(text: string): Record<string, string> {
  const main = text.replace(/\r\n?/g, '\n').split(/\n\n/)[0];
  const out: Record<string, string> = {};
  let last: string | null = null;
  for (const line of main.split('\n')) {
    if (line.startsWith(' ') && last) out[last] += line.slice(1);
    else {
      const colon = line.indexOf(': ');
      if (colon > 0) {
        last = line.slice(0, colon);
        out[last] = line.slice(colon + 2);
      }
    }
  }
  return out;
}

/** java.util.Properties' common form: key=value or key: value lines, # and ! comments. */
function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}
