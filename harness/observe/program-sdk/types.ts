/**
 * The one shape every SDK reader gives: the kind of program, its MCP SDK packages with versions,
 * or why none could be read. Recorded as evidence (`diagnosis-facts`), so the diagnosis stays pure.
 */

export type ProgramKind = 'node' | 'python' | 'go' | 'rust' | 'dotnet' | 'jvm' | 'other';

export interface SdkPackage {
  /** The SDK as its ecosystem names it: a Go module path, a crate, a NuGet id, a Maven group:artifact, an npm or PyPI package. */
  name: string;
  /** Its version, or null when it could not be read (the reader's `reason` says why). */
  version: string | null;
  /** Where it was read: the binary, the jar, the deps.json, the package.json, the dist-info folder. */
  file: string;
  /** How: `Go build info`, `the bundle's <app>.deps.json`, `pom.properties`, `package.json`, ... */
  from?: string;
  /** Anything else a person needs: a Go replace directive, the entry inside a jar, a reference that is not a package. */
  note?: string | null;
}

export interface ProgramSdk {
  kind: ProgramKind;
  /** What the program says of its runtime: `go1.26.0`, `.NETCoreApp,Version=v10.0/linux-x64`; null when not read. */
  runtimeVersion: string | null;
  sdks: SdkPackage[];
  /** Why no SDK, or no version of one, could be read; null when everything was read. */
  reason: string | null;
}
