/**
 * The one shape every SDK reader gives (Go build info, Rust crates, a .NET deps.json, JVM jars,
 * a Node package.json, a Python dist-info): what kind of program it is, the MCP SDK packages it
 * holds, each named as its own ecosystem names it with the version read, and why nothing (or no
 * version) could be read. It is recorded as evidence (`diagnosis-facts`, label `start`), so the
 * diagnosis, a pure function of the log, names the SDK.
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
