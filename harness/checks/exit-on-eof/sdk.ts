/**
 * The server's runtime and SDK as the drill read them (`diagnosis-facts`, `start`), matched to the
 * facts table: what it does at stdin EOF, and the fix for the case the drill shows.
 */
import { eventsOf, firstOf, type DrillEvidence, type RuntimeFacts } from '../../evidence/types.js';
import { type SdkFacts, type SdkId, SDK_FACTS, sdkFacts, stated } from './sdk-facts.js';

export interface SdkFinding {
  /** One line: the runtime, the SDK package and version, where each was read, and what could not be read. */
  line: string;
  /** The SDK's known behaviour at stdin EOF, with its issue; null when none is on record. */
  known: string | null;
  runtime: RuntimeFacts['runtime'] | null;
  /** Which SDK of the facts table, for the diagnosis's choice of fix. */
  family: SdkId | null;
  /** Its row of the facts table; null when the SDK is not known. */
  facts: SdkFacts | null;
  /** The version read, or null when it could not be. */
  version: string | null;
}

/** The case a drill shows, for which fact and fix the diagnosis states. */
export type SdkCase = 'in-flight' | 'keeps-alive' | 'child' | 'write-after-death';

export function runtimeOf(evidence: DrillEvidence): RuntimeFacts | null {
  return eventsOf(evidence, 'diagnosis-facts').find((e) => e.label === 'start')?.runtime ?? null;
}

const KIND_NAMES: Record<string, string> = { go: 'a Go program', rust: 'a Rust program', dotnet: 'a .NET program', jvm: 'a JVM program' };

function familyOf(runtime: RuntimeFacts): { family: SdkId; version: string | null } | null {
  const has = (name: string) => runtime.sdks.find((p) => p.name === name);
  const ts2 = has('@modelcontextprotocol/server');
  if (ts2) return { family: 'ts-sdk-2', version: ts2.version };
  const ts = has('@modelcontextprotocol/sdk');
  if (ts && /^1\./.test(ts.version ?? '')) return { family: 'ts-sdk-1', version: ts.version };
  const fastmcp = has('fastmcp');
  if (fastmcp) return { family: 'fastmcp', version: fastmcp.version };
  for (const row of SDK_FACTS) {
    if (row.id === 'ts-sdk-1' || row.id === 'ts-sdk-2' || row.id === 'fastmcp') continue;
    const found = runtime.sdks.find((p) => row.packages.includes(p.name));
    if (found) return { family: row.id, version: found.version };
  }
  return null;
}

export function sdkFinding(evidence: DrillEvidence): SdkFinding {
  const runtime = runtimeOf(evidence);
  if (!runtime)
    return {
      line: 'runtime and SDK not read (the handshake did not complete, or an older log)',
      known: null,
      runtime: null,
      family: null,
      facts: null,
      version: null,
    };
  const kind = runtime.runtime === 'other' ? (runtime.exe ?? 'unknown runtime') : (KIND_NAMES[runtime.runtime] ?? runtime.runtime);
  const rt = `${kind}${runtime.version ? ` ${runtime.version}` : ''}`;
  const sdks = runtime.sdks.map(
    (p) => `${p.name} ${p.version ?? '(version not read)'} (${p.from ? `${p.from}, ` : ''}${p.file}${p.note ? `; ${p.note}` : ''})`,
  );
  // serverInfo is what the server says of itself in the handshake (an SDK may fill in its own version).
  const hello = firstOf(evidence, 'handshake');
  const info = hello?.serverName ? `; serverInfo ${hello.serverName}${hello.serverVersion ? ` ${hello.serverVersion}` : ''}` : '';
  const none = runtime.reason ? `no MCP SDK named: ${runtime.reason}` : 'no MCP SDK package found near the command';
  const unread = sdks.length > 0 && runtime.reason ? `; ${runtime.reason}` : '';
  const line = `${rt}${info}; ${sdks.length > 0 ? `MCP SDK: ${sdks.join(', ')}${unread}` : none}`;
  const found = familyOf(runtime);
  if (!found) return { line, known: null, runtime: runtime.runtime, family: null, facts: null, version: null };
  const facts = sdkFacts(found.family, found.version);
  const version = found.version === null ? ' (version not read)' : ` ${found.version}`;
  return {
    line,
    runtime: runtime.runtime,
    family: found.family,
    facts,
    version: found.version,
    known: `${facts.title}${version}: at stdin EOF, ${stated(facts.eof)}`,
  };
}

/** What the SDK does in the case at hand, with its issue, and the fix for it; null facts when the SDK is not known. */
export function sdkCase(sdk: SdkFinding, which: SdkCase): { known: string | null; fix: string | null } {
  const facts = sdk.facts;
  if (!facts) return { known: null, fix: null };
  const head = `${facts.title}${sdk.version === null ? ' (version not read)' : ` ${sdk.version}`}`;
  const eof = `at stdin EOF, ${stated(facts.eof)}`;
  const fact = which === 'in-flight' ? facts.inFlight : which === 'write-after-death' ? facts.writeAfterDeath : null;
  const label = which === 'in-flight' ? 'a handler in flight' : 'a write after the client died';
  const known = fact ? `${head}: ${eof}; ${label}: ${stated(fact)}` : `${head}: ${eof}`;
  const fix =
    which === 'in-flight'
      ? facts.fix.inFlight
      : which === 'child'
        ? facts.fix.child
        : which === 'write-after-death'
          ? facts.fix.writeAfterDeath
          : facts.fix.keepsAlive;
  return { known, fix };
}

/** A call was in flight when the client was lost: the target was written and nothing answered it before. */
export function callInFlightAtLoss(evidence: DrillEvidence): boolean {
  const lost = firstOf(evidence, 'client-lost');
  const sent = firstOf(evidence, 'dispatched');
  if (!lost || !sent || sent.t > lost.t) return false;
  return !eventsOf(evidence, 'response').some((r) => r.t <= lost.t) && !eventsOf(evidence, 'call-error').some((r) => r.t <= lost.t);
}
