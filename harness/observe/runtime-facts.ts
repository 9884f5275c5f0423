/** Which runtime and MCP SDK a server runs on, read once the handshake is done from its /proc argv, exe, cwd, environment and maps (program-sdk/read-program-sdk.ts). */
import { basename } from 'node:path';
import { redact as redactText, type Secret } from '../util/secrets.js';
import type { ProcIdentity } from './identity.js';
import { readCmdline, readCwd, readEnviron, readExe, readMaps } from './proc.js';
import { readProgramSdk } from './program-sdk/read-program-sdk.js';
import type { ProgramKind, SdkPackage } from './program-sdk/types.js';

export type { ProgramKind, SdkPackage };

export interface RuntimeFacts {
  /** What kind of program it is. */
  runtime: ProgramKind;
  /** The runtime's version where it can be read (python3.12 -> 3.12; a Go binary's go1.26.0; a .NET target). */
  version: string | null;
  exe: string | null;
  sdks: SdkPackage[];
  /** Why no SDK, or no version of one, could be read. */
  reason?: string | null;
}

export function runtimeFacts(id: ProcIdentity, secrets: readonly Secret[] = []): RuntimeFacts | null {
  const facts = readRuntime(id);
  if (!facts) return null;
  const redact = (s: string): string => redactText(s, secrets);
  return {
    ...facts,
    exe: facts.exe === null ? null : redact(facts.exe),
    sdks: facts.sdks.map((p) => ({ ...p, file: redact(p.file), ...(p.note ? { note: redact(p.note) } : {}) })),
    reason: facts.reason ? redact(facts.reason) : (facts.reason ?? null),
  };
}

function readRuntime(id: ProcIdentity): RuntimeFacts | null {
  const argv = readCmdline(id.pid);
  if (!argv || argv.length === 0) return null;
  // Gone: what argv says is all there is.
  const exe = readExe(id.pid);
  const cwd = (exe === null ? null : readCwd(id.pid)) ?? '/';
  const program = basename(exe ?? argv[0]);
  // The environment only for a JVM (CLASSPATH, JDK_JAVA_OPTIONS), the maps only for Python (site-packages).
  const environ = program === 'java' ? readEnviron(id.pid) : null;
  const read = readProgramSdk({
    argv,
    exe,
    cwd,
    env: environ ? Object.fromEntries(environ) : {},
    maps: program.startsWith('python') ? readMaps(id.pid) : null,
  });
  return { runtime: read.kind, version: read.runtimeVersion, exe, sdks: read.sdks, reason: read.reason };
}
